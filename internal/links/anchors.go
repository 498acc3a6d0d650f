package links

import (
	"strings"
	"unicode"

	"quire/internal/document"
)

// Anchors returns the anchors a document defines: for every heading, at
// any depth, its custom id, its meta id, its key and the slug of its text.
func Anchors(d *document.Document) map[string]struct{} {
	out := map[string]struct{}{}
	if d == nil {
		return out
	}
	var walk func(nodes []document.Node)
	walk = func(nodes []document.Node) {
		for _, n := range nodes {
			if n.Object == document.ObjectText {
				continue
			}
			if n.Object == document.ObjectBlock && isHeading(n.Type) {
				for _, a := range []string{dataString(n.Data, "id"), dataString(n.Meta, "id"), n.Key,
					AnchorSlug(document.New(n).PlainText())} {
					if a != "" {
						out[a] = struct{}{}
					}
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(d.Nodes)
	return out
}

// isHeading reports whether a block type is a heading.
func isHeading(typ string) bool {
	return typ == document.TypeHeading1 || typ == document.TypeHeading2 || typ == document.TypeHeading3
}

// dataString returns a string member of a data map.
func dataString(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// AnchorSlug is the anchor Markdown links use for a heading's text: lower
// case, letters and digits kept, every other run of characters one "-",
// none at either end.
func AnchorSlug(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}
