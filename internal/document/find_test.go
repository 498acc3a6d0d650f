package document

import (
	"os"
	"testing"
)

// allBlocks walks nodes and fragments and collects every keyed block.
func allBlocks(nodes []Node, out map[string]Node) {
	for _, n := range nodes {
		if n.Object == ObjectBlock && n.Key != "" {
			out[n.Key] = n
		}
		allBlocks(n.Nodes, out)
		allBlocks(n.Fragments, out)
	}
}

func TestBlockFindsKeysAtAnyDepth(t *testing.T) {
	src, err := os.ReadFile("testdata/page.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := FromMarkdown(string(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Node{}
	allBlocks(doc.Nodes, want)
	if len(want) < 20 {
		t.Fatalf("only %d keyed blocks in the golden page", len(want))
	}
	var table Node
	for key, n := range want {
		got, ok := doc.Block(key)
		if !ok || got.Type != n.Type {
			t.Errorf("Block(%q) = %v %v, want a %s", key, got.Type, ok, n.Type)
		}
		// The pricing table: three rows of three columns.
		if recs, _ := n.Data["records"].(map[string]any); n.Type == TypeTable && len(recs) == 3 {
			table = n
		}
	}
	for _, key := range []string{"", "nosuchkey"} {
		if _, ok := doc.Block(key); ok {
			t.Errorf("Block(%q) found a block", key)
		}
	}
	if _, ok := (*Document)(nil).Block("x"); ok {
		t.Error("a nil document has a block")
	}
	if table.Type == "" {
		t.Fatal("no table in the golden page")
	}
	for _, c := range []struct {
		record, definition string
		want               bool
	}{{"r1", "c1", true}, {"r3", "c3", true}, {"r9", "c1", false}, {"r1", "c9", false}, {"", "", false}} {
		if got := HasTableCell(table, c.record, c.definition); got != c.want {
			t.Errorf("HasTableCell(%s, %s) = %v, want %v", c.record, c.definition, got, c.want)
		}
	}
	if HasTableCell(Paragraph("x"), "r1", "c1") {
		t.Error("a paragraph has a table cell")
	}
}
