package gitbook

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// summaryTitle is the heading GitBook writes at the top of SUMMARY.md.
const summaryTitle = "# Table of contents"

// renderSummary writes the table of contents: top-level pages, then each
// group as a "##" heading followed by its pages, nested two spaces per
// level with "*" bullets.
func (w *writer) renderSummary() string {
	var b strings.Builder
	b.WriteString(summaryTitle + "\n\n")
	res := &exportResolver{w: w, dir: dirOf(w.summary)}
	inList := false
	for _, p := range w.sp.Pages {
		if p.Kind == quire.PageGroup {
			if inList || b.Len() > len(summaryTitle)+2 {
				b.WriteString("\n")
			}
			b.WriteString("## " + escapeHeading(titleWithEmoji(p.Title, p.Emoji)))
			if slug := slugOf(p); slug != content.Slugify(p.Title) {
				b.WriteString(` <a href="#` + slug + `" id="` + slug + `"></a>`)
			}
			b.WriteString("\n")
			if len(p.Children) > 0 {
				b.WriteString("\n")
				w.summaryItems(&b, res, p.Children, 0)
			}
			inList = true
			continue
		}
		w.summaryItems(&b, res, []*Page{p}, 0)
		inList = true
	}
	return b.String()
}

// summaryItems writes list items for pages and their children.
func (w *writer) summaryItems(b *strings.Builder, res *exportResolver, pages []*Page, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, p := range pages {
		switch p.Kind {
		case quire.PageComputed:
			w.computedItem(b, indent, p)
			continue
		case quire.PageGroup:
			// A group below the top level has no form: its pages take
			// its place.
			w.summaryItems(b, res, p.Children, depth)
			continue
		}
		if fileless(p) {
			item := escapeText(titleWithEmoji(p.Title, p.Emoji))
			if p.Listing == ListedWithEmptyLink || item == "" || !plainListText(item) {
				item = "[" + item + "](<>)"
			}
			b.WriteString(indent + "* " + item + "\n")
			w.summaryItems(b, res, p.Children, depth+1)
			continue
		}
		target := brokenReference
		switch {
		case p.Kind == quire.PageDocument:
			target = escapeTarget(relPath(res.dir, w.pagePath[p]))
			w.listed[p] = true
		case p.Target != nil:
			target = res.target(*p.Target)
			if to := w.pages[p.Target.Page]; p.Target.Kind == document.RefPage && to != nil && !w.listed[to] && w.pagePath[to] != "" {
				// Read takes the first plain link to a file as its page;
				// an empty fragment marks this one as a link.
				target += "#"
			}
		case p.Href != "":
			target = p.Href
		}
		b.WriteString(indent + "* [" + escapeText(titleWithEmoji(p.Title, p.Emoji)) + "](" + linkDestination(target) + ")\n")
		w.summaryItems(b, res, p.Children, depth+1)
	}
}

// computedItem writes a computed page as a fenced yaml block.
func (w *writer) computedItem(b *strings.Builder, indent string, p *Page) {
	src := struct {
		Type         string         `yaml:"type"`
		Props        map[string]any `yaml:"props,omitempty"`
		Dependencies map[string]any `yaml:"dependencies,omitempty"`
	}{}
	if p.Computed != nil {
		src.Type, src.Props, src.Dependencies = p.Computed.Type, p.Computed.Props, p.Computed.Dependencies
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if enc.Encode(&src) != nil || enc.Close() != nil {
		return
	}
	out := buf.Bytes()
	b.WriteString(indent + "* ```yaml\n")
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		b.WriteString(indent + "  " + line + "\n")
	}
	b.WriteString(indent + "  ```\n")
}

// linkDestination writes a link destination, in angle brackets when it
// holds spaces or parentheses.
func linkDestination(t string) string {
	if t == "" {
		return "<>"
	}
	if !strings.ContainsAny(t, " \t()<>\\") {
		return t
	}
	return "<" + strings.NewReplacer("\\", "\\\\", "<", "\\<", ">", "\\>").Replace(t) + ">"
}

// plainListText reports whether text written as a list item reads back
// as a plain text entry: not a link, a fence or another list marker.
func plainListText(text string) bool {
	if strings.HasPrefix(text, "[") || strings.HasPrefix(text, "```") || strings.HasPrefix(text, "~~~") {
		return false
	}
	if _, _, _, ok := listItem(text); ok {
		return false
	}
	return !strings.HasPrefix(text, "#")
}
