package document

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// wideMarkdown returns Markdown shapes with many nodes and little nesting,
// each of about n bytes.
func wideMarkdown() map[string]func(n int) string {
	return map[string]func(n int) string{
		"list items": func(n int) string { return strings.Repeat("- item\n", n/7) },
		"table rows": func(n int) string { return "| a | b |\n| - | - |\n" + strings.Repeat("| x | y |\n", n/10) },
		"brackets":   func(n int) string { return strings.Repeat("[", n) },
		"html table rows": func(n int) string {
			return "<table>" + strings.Repeat("<tr><td>x</td><td>y</td></tr>", n/30) + "</table>"
		},
		"footnote references": func(n int) string {
			return strings.Repeat("x[^1] ", n/6) + "\n\n[^1]: body"
		},
		"lists 30 deep": func(n int) string {
			return strings.Repeat(strings.Repeat("- ", 30)+"x\n\n", n/63)
		},
	}
}

func TestFromMarkdownRefusesTooManyNodes(t *testing.T) {
	for name, shape := range wideMarkdown() {
		_, err := FromMarkdown(shape(1 << 20))
		if !errors.Is(err, ErrTooManyNodes) {
			t.Errorf("%s: err = %v, want ErrTooManyNodes", name, err)
		}
	}
}

func TestFromMarkdownCountsTableCells(t *testing.T) {
	// A wide header pads every short row to its width.
	cols := MaxNodes / 1000
	md := "|" + strings.Repeat(" a |", cols) + "\n|" + strings.Repeat(" - |", cols) + "\n" +
		strings.Repeat("| x |\n", 1000)
	if _, err := FromMarkdown(md); !errors.Is(err, ErrTooManyNodes) {
		t.Fatalf("%d padded cells: err = %v, want ErrTooManyNodes", cols*1000, err)
	}
}

func TestFromMarkdownNodeLimitAcrossNestedMarkdown(t *testing.T) {
	// Markdown inside HTML is parsed again; it spends the same budget.
	md := "<details>\n<summary>s</summary>\n\n" + strings.Repeat("- item\n", MaxNodes/2) + "\n</details>\n"
	if _, err := FromMarkdown(md); !errors.Is(err, ErrTooManyNodes) {
		t.Fatalf("err = %v, want ErrTooManyNodes", err)
	}
}

// jsonParagraphs returns a JSON document of n paragraphs.
func jsonParagraphs(n int) []byte {
	const para = `{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}`
	return []byte(`{"object":"document","data":{},"nodes":[` + strings.TrimSuffix(strings.Repeat(para+",", n), ",") + `]}`)
}

func TestParseRefusesTooManyNodes(t *testing.T) {
	// Each paragraph is a block, a text and a leaf.
	data := jsonParagraphs(MaxNodes/3 + 1)
	_, err := Parse(data)
	var perr *ParseError
	if !errors.As(err, &perr) || !errors.Is(err, ErrTooManyNodes) {
		t.Fatalf("err = %v, want a ParseError wrapping ErrTooManyNodes", err)
	}
	if !strings.Contains(err.Error(), "200000") {
		t.Errorf("error %q does not name the limit", err)
	}
	// Stored documents are read whatever their size.
	doc, err := ParseStored(data)
	if err != nil {
		t.Fatalf("ParseStored: %v", err)
	}
	if len(doc.Nodes) != MaxNodes/3+1 {
		t.Errorf("ParseStored read %d blocks, want %d", len(doc.Nodes), MaxNodes/3+1)
	}
	if _, err := Parse(jsonParagraphs(MaxNodes / 3)); err != nil {
		t.Errorf("%d nodes: %v", MaxNodes/3*3, err)
	}
}

func TestLargeDocumentIsWithinNodeLimit(t *testing.T) {
	doc := largeDocument(t, 10000)
	md := mustToMarkdown(t, doc)
	back, err := FromMarkdown(md)
	if err != nil {
		t.Fatalf("10,000-block Markdown: %v", err)
	}
	if len(back.Nodes) < 10000 {
		t.Errorf("read back %d blocks, want at least 10,000", len(back.Nodes))
	}
	data, err := back.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data); err != nil {
		t.Fatalf("10,000-block JSON: %v", err)
	}
	// Plain paragraphs: ten thousand of them, each with a link and marks.
	if _, err := FromMarkdown(strings.Repeat("Some *text* with a [link](https://x.io) and `code`.\n\n", 10000)); err != nil {
		t.Fatalf("10,000 paragraphs: %v", err)
	}
}

func TestParseStoredReadsDeepDocuments(t *testing.T) {
	data := []byte(nestedJSON(MaxDepth + 10))
	if _, err := Parse(data); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("Parse: err = %v, want ErrTooDeep", err)
	}
	doc, err := ParseStored(data)
	if err != nil {
		t.Fatalf("ParseStored: %v", err)
	}
	// The blockquotes, the paragraph and its text.
	if d := depth(doc.Nodes); d != MaxDepth+12 {
		t.Errorf("depth %d, want %d", d, MaxDepth+12)
	}
	md, err := ToMarkdown(doc)
	if err != nil {
		t.Fatalf("ToMarkdown: %v", err)
	}
	if !strings.Contains(md, "x") {
		t.Errorf("Markdown %q lost the text", md)
	}
	// ParseStored stays strict about everything else.
	if _, err := ParseStored([]byte(`{"object":"document","data":{},"nodes":[{"object":"block","type":"nope"}]}`)); err == nil {
		t.Error("ParseStored accepted an unknown block type")
	}
}

func TestFromMarkdownAcceptsOnlyWhatParseAccepts(t *testing.T) {
	// Each paragraph is 12 nodes in JSON: a block, five texts with their
	// leaves and a link holding a text and a leaf.
	para := "Some *text* with a [link](https://x.io) and `code`.\n\n"
	within := MaxNodes / 12
	doc, err := FromMarkdown(strings.Repeat(para, within))
	if err != nil {
		t.Fatalf("%d paragraphs: %v", within, err)
	}
	data, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data); err != nil {
		t.Fatalf("Parse refuses what FromMarkdown returned: %v", err)
	}
	if _, err := FromMarkdown(strings.Repeat(para, within+1)); !errors.Is(err, ErrTooManyNodes) {
		t.Fatalf("%d paragraphs: err = %v, want ErrTooManyNodes", within+1, err)
	}
}

func TestFromMarkdownCountsFootnoteCopies(t *testing.T) {
	// Each reference copies the definition: a large one referenced often
	// is refused, although the text is short.
	md := strings.Repeat("x[^1] ", 2000) + "\n\n[^1]: " + strings.Repeat("* y\n    ", 200)
	if _, err := FromMarkdown(md); !errors.Is(err, ErrTooManyNodes) {
		t.Fatalf("err = %v, want ErrTooManyNodes", err)
	}
}

func TestHTMLNestingIsBounded(t *testing.T) {
	// HTML lists and tables nested past the converter's nesting are kept
	// as raw HTML rather than nested deeper.
	for _, md := range []string{
		strings.Repeat("<table><tr><td>", 200) + "x" + strings.Repeat("</td></tr></table>", 200),
		"<table><tr><td>" + strings.Repeat("<ul><li>", 200) + "x" + strings.Repeat("</li></ul>", 200) + "</td></tr></table>",
	} {
		doc, err := FromMarkdown(md)
		if err != nil {
			t.Fatal(err)
		}
		if d := depth(doc.Nodes); d > MaxDepth {
			t.Fatalf("depth %d", d)
		}
		if !strings.Contains(canonicalJSON(t, doc), `"type": "raw"`) {
			t.Error("no raw block at the cut")
		}
	}
}

// linkDefinitionParagraph returns one paragraph of n link reference definitions
// followed by a paragraph using the last.
func linkDefinitionParagraph(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[a%d]: /x%d\n", i, i)
	}
	fmt.Fprintf(&b, "\n[a%d]\n", n-1)
	return b.String()
}

func TestFromMarkdownCountsLinkDefinitions(t *testing.T) {
	// Each line of definitions counts twice: a line that may start a
	// block, and a definition.
	within := MaxNodes / 4
	doc, err := FromMarkdown(linkDefinitionParagraph(within))
	if err != nil {
		t.Fatalf("%d definitions: %v", within, err)
	}
	want := fmt.Sprintf(`"url": "/x%d"`, within-1)
	if got := canonicalJSON(t, doc); !strings.Contains(got, want) {
		t.Fatalf("%d definitions: the last is not used: %s", within, got)
	}
	past := MaxNodes/2 + 1
	_, err = FromMarkdown(linkDefinitionParagraph(past))
	if !errors.Is(err, ErrTooManyNodes) || !strings.Contains(err.Error(), "link definitions") {
		t.Fatalf("%d definitions: err = %v, want ErrTooManyNodes naming link definitions", past, err)
	}
}
