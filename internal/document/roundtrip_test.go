package document

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMarkdownRoundTrip(t *testing.T) {
	for _, tc := range markdownCases() {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.md + "\n"
			doc := mustFromMarkdown(t, tc.md)
			got := mustToMarkdown(t, doc)
			if got != want {
				t.Fatalf("Markdown → Document → Markdown changed the text\n%s\n--- got:\n%s--- want:\n%s", diffLines(got, want), got, want)
			}
			// Document → Markdown → Document gives the same document.
			again := mustFromMarkdown(t, got)
			if a, b := canonicalJSON(t, doc), canonicalJSON(t, again); a != b {
				t.Fatalf("Document → Markdown → Document changed the document\n%s", diffLines(b, a))
			}
			for i, n := range doc.Nodes {
				if BlockHash(n) != BlockHash(again.Nodes[i]) {
					t.Fatalf("block %d hash differs after a round trip", i)
				}
			}
		})
	}
}

func TestEveryBlockKindCovered(t *testing.T) {
	seen := map[string]bool{}
	var walk func([]Node)
	walk = func(nodes []Node) {
		for _, n := range nodes {
			seen[n.Object+":"+n.Type] = true
			for _, l := range n.Leaves {
				for _, m := range l.Marks {
					seen["mark:"+m.Type] = true
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	for _, tc := range markdownCases() {
		walk(mustFromMarkdown(t, tc.md).Nodes)
	}
	want := []string{
		"block:paragraph", "block:heading-1", "block:heading-2", "block:heading-3",
		"block:list-ordered", "block:list-unordered", "block:list-tasks", "block:list-item",
		"block:divider", "block:blockquote", "block:hint", "block:images", "block:image",
		"block:file", "block:drawing", "block:embed", "block:code", "block:code-line",
		"block:math", "block:expandable", "block:tabs", "block:tabs-item", "block:table",
		"block:content-ref", "block:stepper", "block:stepper-step", "block:columns",
		"block:column", "block:if", "block:reusable-content", "block:updates", "block:update",
		"block:raw", "block:swagger", "block:openapi-operation", "block:openapi-schemas",
		"block:openapi-webhook", "inline:annotation", "inline:raw",
		"inline:link", "inline:inline-image", "inline:emoji", "inline:icon",
		"inline:expression", "inline:inline-math", "inline:mention", "inline:button",
		"mark:bold", "mark:italic", "mark:code", "mark:keyboard", "mark:strikethrough",
		"mark:color", "mark:superscript", "mark:subscript",
	}
	for _, k := range want {
		if !seen[k] {
			t.Errorf("no round-trip case produces %s", k)
		}
	}
}

func TestHeadingOffset(t *testing.T) {
	api := "# One\n\n## Two\n\n### Three\n"
	git := "## One\n\n### Two\n\n#### Three\n"
	doc := mustFromMarkdown(t, api)
	if got := mustToMarkdown(t, doc, HeadingOffset(1)); got != git {
		t.Fatalf("Git form:\n%s", got)
	}
	fromGit := mustFromMarkdown(t, git, HeadingOffset(1))
	if canonicalJSON(t, fromGit) != canonicalJSON(t, doc) {
		t.Fatal("Git form does not read back to the same headings")
	}
	for i, typ := range []string{TypeHeading1, TypeHeading2, TypeHeading3} {
		if fromGit.Nodes[i].Type != typ {
			t.Errorf("block %d: got %s, want %s", i, fromGit.Nodes[i].Type, typ)
		}
	}
	// Levels past the third are clamped.
	deep := mustFromMarkdown(t, "###### Deep")
	if deep.Nodes[0].Type != TypeHeading3 {
		t.Errorf("###### gave %s", deep.Nodes[0].Type)
	}
}

func TestFragmentsAndShapes(t *testing.T) {
	doc := mustFromMarkdown(t, "<details>\n\n<summary>Title</summary>\n\nBody\n\n</details>")
	exp := doc.Nodes[0]
	if exp.Type != TypeExpandable || !exp.IsVoid() || len(exp.Fragments) != 2 {
		t.Fatalf("unexpected expandable: %+v", exp)
	}
	if exp.Fragments[0].Fragment != "expandable-title" || exp.Fragments[1].Fragment != "expandable-body" {
		t.Fatalf("fragments: %+v", exp.Fragments)
	}
	j := canonicalJSON(t, doc)
	for _, want := range []string{`"isVoid": true`, `"fragment": "expandable-title"`, `"type": "expandable-body"`} {
		if !strings.Contains(j, want) {
			t.Errorf("JSON lacks %s:\n%s", want, j)
		}
	}
}

// TestJSONRoundTrip checks that every case's document survives its JSON
// form: Parse accepts it and ToMarkdown writes the same Markdown.
func TestJSONRoundTrip(t *testing.T) {
	for _, tc := range markdownCases() {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustFromMarkdown(t, tc.md)
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := Parse(b)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := mustToMarkdown(t, parsed); got != tc.md+"\n" {
				t.Fatalf("Markdown from the parsed JSON differs\n%s", diffLines(got, tc.md+"\n"))
			}
		})
	}
}
