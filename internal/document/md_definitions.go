package document

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// topLevelDefinitions is goldmark's definition list parser limited to
// lists at the top of the page, whose source is kept as written (a raw
// block); within lists and quotes the lines stay a paragraph.
type topLevelDefinitions struct {
	parser.BlockParser
}

// Open starts a definition list when its parent is the document.
func (p topLevelDefinitions) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if parent.Kind() != ast.KindDocument {
		return nil, parser.NoChildren
	}
	return p.BlockParser.Open(parent, reader, pc)
}
