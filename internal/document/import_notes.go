package document

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// footnotes converts the footnote definitions goldmark gathered at the
// end of root, so that the references met in the blocks can take them.
func (c *converter) footnotes(root ast.Node) {
	list, ok := root.LastChild().(*extast.FootnoteList)
	if !ok {
		return
	}
	c.notes = map[int][]Node{}
	for n := list.FirstChild(); n != nil; n = n.NextSibling() {
		if fn, ok := n.(*extast.Footnote); ok {
			c.notes[fn.Index] = c.orEmpty(c.blocks(fn))
		}
	}
}

// annotation converts a footnote reference to an annotation: the word
// written just before the reference is the annotated text, and the
// definition is the annotation's body.
func (ic *inlineConv) annotation(index int) {
	body, ok := ic.c.notes[index]
	if !ok || !ic.c.state.spend(countNodes(body)+3, "footnotes") {
		return
	}
	ic.flush()
	f := ic.top()
	word := Leaf{}
	if k := len(f.nodes) - 1; k >= 0 && f.nodes[k].Object == ObjectText {
		t := &f.nodes[k]
		last := &t.Leaves[len(t.Leaves)-1]
		cut := len(last.Text)
		for cut > 0 {
			r, size := utf8.DecodeLastRuneInString(last.Text[:cut])
			if unicode.IsSpace(r) {
				break
			}
			cut -= size
		}
		word = Leaf{Text: last.Text[cut:], Marks: last.Marks}
		last.Text = last.Text[:cut]
		if last.Text == "" {
			t.Leaves = t.Leaves[:len(t.Leaves)-1]
			if len(t.Leaves) == 0 {
				f.nodes = f.nodes[:k]
			}
		}
	}
	// Each reference holds its own copy of the definition.
	nodes := cloneNodes(body)
	a := Inline(InlineAnnotation, nil, Text(word))
	a.Fragments = []Node{{Object: ObjectFragment, Fragment: "annotation-body", Type: "annotation-body", Nodes: nodes}}
	ic.addInline(a)
}

// cloneNodes copies nodes deeply enough that keys given to one copy do
// not reach another.
func cloneNodes(nodes []Node) []Node {
	if nodes == nil {
		return nil
	}
	out := make([]Node, len(nodes))
	for i, n := range nodes {
		n.Nodes = cloneNodes(n.Nodes)
		n.Fragments = cloneNodes(n.Fragments)
		out[i] = n
	}
	return out
}

// noteRef returns the footnote label written for the k-th annotation.
func noteRef(k int) string { return "[^" + strconv.Itoa(k) + "]" }
