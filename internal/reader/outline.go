package reader

import (
	"strings"

	"quire/internal/document"
)

// noteHeading records a heading for the outline when it is a top-level
// block, not inside hints, tabs, steps, columns, tables or notes.
func (w *bodyWriter) noteHeading(n *document.Node, id string, level int) {
	if w.nested != 1 {
		return
	}
	w.outline = append(w.outline, Heading{ID: id, Title: strings.TrimSpace(plainText(n.Nodes)), Level: level})
}

// Outline returns the headings of a document in order, with the anchors
// the rendered page gives them, for an "On this page" list.
func Outline(doc *document.Document, res Resolvers) []Heading {
	if doc == nil {
		return nil
	}
	w := newBodyWriter(&res, newHighlighter(), nil)
	w.noCode = true
	w.shiftHeadings(doc.Nodes)
	w.blocks(doc.Nodes)
	return w.outline
}
