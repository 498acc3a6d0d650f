package reader

import (
	"io"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/document"
)

// largePage returns the fixture page with its blocks repeated up to n
// top-level blocks.
func largePage(tb testing.TB, n int) *Page {
	p := fixturePage(tb)
	unit := p.Document.Nodes
	doc := document.New()
	for len(doc.Nodes) < n {
		doc.Nodes = append(doc.Nodes, unit...)
	}
	doc.Nodes = doc.Nodes[:n]
	p.Document = doc
	return p
}

func BenchmarkRenderPage2000(b *testing.B) {
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	p := largePage(b, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := r.RenderPage(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderPage2000Cold renders with nothing highlighted yet: the
// cost of a page's first render.
func BenchmarkRenderPage2000Cold(b *testing.B) {
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	p := largePage(b, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.hl.done.Purge()
		if err := r.RenderPage(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLargePageRenders checks that a 2,000-block page renders whole,
// with every heading anchored once.
func TestLargePageRenders(t *testing.T) {
	doc, _ := renderFixture(t, largePage(t, 2000))
	seen := map[string]bool{}
	for _, n := range findAll(doc, func(n *html.Node) bool { _, ok := attr(n, "id"); return ok }) {
		id, _ := attr(n, "id")
		if seen[id] {
			t.Errorf("id %q is given twice", id)
		}
		seen[id] = true
	}
	if len(findAll(doc, byClass("code-block"))) < 100 {
		t.Error("the large page lost its code blocks")
	}
}
