package reader

import (
	"bytes"
	"strings"
	"testing"

	"quire/internal/document"
)

// TestRenderBlocks checks that each block is drawn as the whole body
// draws it, one piece per top-level block, and that the prefix starts
// the ids the blocks give.
func TestRenderBlocks(t *testing.T) {
	doc, err := document.FromMarkdown("# Title\n\nFirst paragraph.\n\n## Part\n\nLast.\n")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	blocks, notes := r.RenderBlocks(&Page{Document: doc}, "old-", nil)
	if len(blocks) != len(doc.Nodes) || notes != "" {
		t.Fatalf("%d blocks and notes %q for %d nodes", len(blocks), notes, len(doc.Nodes))
	}
	var whole bytes.Buffer
	if _, err := r.RenderBody(&whole, &Page{Document: doc}); err != nil {
		t.Fatal(err)
	}
	plain, _ := r.RenderBlocks(&Page{Document: doc}, "", nil)
	if got := strings.Join(plain, ""); got != whole.String() {
		t.Errorf("blocks without a prefix:\n%s\nwant the body:\n%s", got, whole.String())
	}
	if !strings.Contains(blocks[2], `id="old-part"`) || !strings.Contains(blocks[1], "First paragraph.") {
		t.Errorf("blocks: %q", blocks)
	}
	some, _ := r.RenderBlocks(&Page{Document: doc}, "", func(i int) bool { return i == 1 })
	if some[0] != "" || some[2] != "" || some[1] != plain[1] {
		t.Errorf("only block 1 wanted: %q", some)
	}
	if b, _ := r.RenderBlocks(&Page{Document: doc}, `x"><b`, nil); strings.Contains(strings.Join(b, ""), `x"`) {
		t.Errorf("an unsafe prefix was written: %q", b)
	}
}
