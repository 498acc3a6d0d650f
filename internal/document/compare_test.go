package document

import (
	"encoding/json"
	"strings"
	"testing"
)

// canonicalJSON marshals a document with keys removed, for comparisons
// that ignore keys.
func canonicalJSON(t testing.TB, doc *Document) string {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	stripKeys(v)
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(out)
}

func stripKeys(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "key")
		for _, c := range x {
			stripKeys(c)
		}
	case []any:
		for _, c := range x {
			stripKeys(c)
		}
	}
}

// mustFromMarkdown converts Markdown and checks that the result is a valid
// document according to Parse.
func mustFromMarkdown(t testing.TB, src string, opts ...Option) *Document {
	t.Helper()
	doc, err := FromMarkdown(src, opts...)
	if err != nil {
		t.Fatalf("FromMarkdown: %v", err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if _, err := Parse(b); err != nil {
		t.Fatalf("Parse rejects the converted document: %v\n%s", err, b)
	}
	return doc
}

func mustToMarkdown(t testing.TB, doc *Document, opts ...Option) string {
	t.Helper()
	md, err := ToMarkdown(doc, opts...)
	if err != nil {
		t.Fatalf("ToMarkdown: %v", err)
	}
	return md
}

// collectKeys returns every key of blocks, inlines and fragments.
func collectKeys(nodes []Node, out []string) []string {
	for _, n := range nodes {
		if n.Object != ObjectText {
			out = append(out, n.Key)
		}
		out = collectKeys(n.Nodes, out)
		out = collectKeys(n.Fragments, out)
	}
	return out
}

// diffLines returns a short description of where two texts differ.
func diffLines(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return "line " + itoaTest(i+1) + ":\n got: " + x + "\nwant: " + y
		}
	}
	return ""
}

func itoaTest(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
