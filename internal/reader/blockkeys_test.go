package reader

import (
	"bytes"
	"strings"
	"testing"

	"quire/internal/document"
)

// TestBlockKeys checks that with BlockKeys each top-level block, and only
// those, sits in an element naming its key, escaped, in document order,
// and that without it no key shows.
func TestBlockKeys(t *testing.T) {
	doc, err := document.FromMarkdown("# Title\n\nFirst paragraph.\n\n> quoted\n>\n> twice\n")
	if err != nil {
		t.Fatal(err)
	}
	doc.Nodes[1].Key = `a"b<c`
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	body := func(keys bool) string {
		var buf bytes.Buffer
		if _, err := r.RenderBody(&buf, &Page{Document: doc, BlockKeys: keys}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	with := body(true)
	if got, want := strings.Count(with, `class="block"`), len(doc.Nodes); got != want {
		t.Fatalf("%d keyed blocks, want %d:\n%s", got, want, with)
	}
	last := -1
	for _, n := range doc.Nodes {
		k := `data-block="` + strings.NewReplacer(`"`, "&#34;", "<", "&lt;").Replace(n.Key) + `"`
		i := strings.Index(with, k)
		if i <= last {
			t.Fatalf("key %q at %d, after %d:\n%s", n.Key, i, last, with)
		}
		last = i
	}
	if without := body(false); strings.Contains(without, "data-block") {
		t.Fatalf("keys without BlockKeys:\n%s", without)
	}
}
