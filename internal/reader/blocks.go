package reader

import "strings"

// RenderBlocks draws each top-level block of the page's document on its
// own, as RenderBody draws it (headings shifted as in the whole page),
// for views that place a document's blocks apart, such as a comparison
// of two revisions. It returns the HTML of every block, in order, and
// that of the footnotes they reference ("" for none). idPrefix starts
// every id the blocks give (headings, tabs, notes), so that two
// documents drawn into one page do not share ids; it is kept to
// letters, digits, "-" and "_". With want set, only the blocks it
// reports true for are drawn; the others are left "".
func (r *Renderer) RenderBlocks(p *Page, idPrefix string, want func(i int) bool) (blocks []string, notes string) {
	if p.Document == nil {
		return nil, ""
	}
	bw := newBodyWriter(&p.Resolvers, r.hl, r.policy)
	bw.idPrefix = idSafe(idPrefix)
	nodes := p.Document.Nodes
	bw.shiftHeadings(nodes)
	blocks = make([]string, len(nodes))
	bw.nested++
	for i := range nodes {
		if want != nil && !want(i) {
			continue
		}
		start := bw.b.Len()
		bw.block(&nodes[i])
		blocks[i] = bw.b.String()[start:]
	}
	bw.nested--
	start := bw.b.Len()
	bw.footnotes()
	return blocks, bw.b.String()[start:]
}

// idSafe keeps the letters, digits, "-" and "_" of s.
func idSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, s)
}
