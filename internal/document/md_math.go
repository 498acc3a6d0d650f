package document

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// mathBlock is a $$…$$ formula standing alone, on one line or several.
type mathBlock struct {
	ast.BaseBlock
	formula strings.Builder
	closed  bool
}

// Kind returns the node kind.
func (n *mathBlock) Kind() ast.NodeKind { return kindMathBlock }

// Dump writes the node for debugging.
func (n *mathBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// mathBlockParser parses $$ blocks. It finds the last "$$" of a source
// once, so that many openings cost linear time.
type mathBlockParser struct {
	last    int // offset of the last "$$", -1 for none
	indexed bool
}

// Trigger returns the characters that may start the construct.
func (p *mathBlockParser) Trigger() []byte { return []byte{'$'} }

// Open starts the construct on the current line.
func (p *mathBlockParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 {
		return nil, parser.NoChildren
	}
	trimmed := bytes.TrimSpace(line[pos:])
	if !bytes.HasPrefix(trimmed, []byte("$$")) {
		return nil, parser.NoChildren
	}
	inner := trimmed[2:]
	node := &mathBlock{}
	if end := bytes.Index(inner, []byte("$$")); end >= 0 {
		// Single line: only "$$formula$$" alone is a block.
		if end+2 != len(inner) || end == 0 {
			return nil, parser.NoChildren
		}
		node.formula.Write(inner[:end])
		node.closed = true
		reader.AdvanceToEOL()
		return node, parser.NoChildren
	}
	if !p.indexed {
		p.last, p.indexed = bytes.LastIndex(reader.Source(), []byte("$$")), true
	}
	if p.last < seg.Stop {
		return nil, parser.NoChildren
	}
	node.formula.Write(inner)
	reader.AdvanceToEOL()
	return node, parser.NoChildren
}

// Continue consumes the next line of an open construct.
func (p *mathBlockParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*mathBlock)
	if n.closed {
		return parser.Close
	}
	line, _ := reader.PeekLine()
	if line == nil {
		return parser.Close
	}
	content := bytes.TrimRight(line, "\r\n")
	if end := bytes.Index(content, []byte("$$")); end >= 0 {
		n.addLine(content[:end])
		n.closed = true
		reader.AdvanceToEOL()
		return parser.Close
	}
	n.addLine(content)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (n *mathBlock) addLine(b []byte) {
	if n.formula.Len() > 0 {
		n.formula.WriteByte('\n')
	}
	n.formula.Write(b)
}

// Close finishes the construct.
func (p *mathBlockParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

// CanInterruptParagraph reports whether the construct may interrupt a paragraph.
func (p *mathBlockParser) CanInterruptParagraph() bool { return false }

// CanAcceptIndentedLine reports whether the construct may start on an indented line.
func (p *mathBlockParser) CanAcceptIndentedLine() bool { return false }

// mathInline is a $$…$$ formula inside text.
type mathInline struct {
	ast.BaseInline
	formula string
}

// Kind returns the node kind.
func (n *mathInline) Kind() ast.NodeKind { return kindMathInline }

// Dump writes the node for debugging.
func (n *mathInline) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

type mathInlineParser struct{}

// Trigger returns the characters that may start the construct.
func (mathInlineParser) Trigger() []byte { return []byte{'$'} }

// Parse reads an inline formula.
func (mathInlineParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("$$")) {
		return nil
	}
	end := bytes.Index(line[2:], []byte("$$"))
	if end <= 0 {
		return nil
	}
	block.Advance(end + 4)
	return &mathInline{formula: string(line[2 : end+2])}
}
