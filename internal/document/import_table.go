package document

import (
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// table converts a GFM pipe table: the header row gives the column titles
// and alignments, and each cell becomes a text fragment.
func (c *converter) table(n *extast.Table) Node {
	var cols []tableColumn
	var rows [][][]Node
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		if _, isHeader := r.(*extast.TableHeader); isHeader {
			for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
				col := tableColumn{title: plainInlineText(c, cell), align: "left"}
				if tc, ok := cell.(*extast.TableCell); ok {
					switch tc.Alignment {
					case extast.AlignCenter:
						col.align = "center"
					case extast.AlignRight:
						col.align = "right"
					}
				}
				cols = append(cols, col)
			}
			continue
		}
		// Every cell, short rows padded to the header's width, becomes a
		// fragment holding a paragraph, a text and a leaf: count them
		// before converting.
		if !c.state.spend(4*max(len(cols), r.ChildCount()), "table cells") {
			return Node{}
		}
		row := make([][]Node, 0, r.ChildCount())
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			row = append(row, c.cellBlocks(cell))
		}
		rows = append(rows, row)
	}
	return buildTable(cols, rows)
}

func (c *converter) cellBlocks(cell ast.Node) []Node {
	ic := c.newInlineConv()
	ic.children(cell)
	nodes := ic.finish()
	return []Node{Block(TypeParagraph, nil, nodes...)}
}
