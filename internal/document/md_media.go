package document

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// htmlMedia is an HTML image construct on lines of its own: a <figure>,
// a <div> wrapping figures, a <picture> or a single <img>.
type htmlMedia struct {
	ast.BaseBlock
	raw    bytes.Buffer
	outer  string
	depth  int
	closed bool
}

// Kind returns the node kind.
func (n *htmlMedia) Kind() ast.NodeKind { return kindHTMLMedia }

// Dump writes the node for debugging.
func (n *htmlMedia) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// htmlMediaParser parses HTML media blocks; see mediaLineIndex for what
// it remembers about the source.
type htmlMediaParser struct {
	lines map[string]*mediaLineIndex
}

// Trigger returns the characters that may start the construct.
func (p *htmlMediaParser) Trigger() []byte { return []byte{'<'} }

// mediaOuterTag returns the construct's outer tag name, or "".
func mediaOuterTag(line []byte) string {
	tok, size := parseHTMLTag(string(line))
	if size == 0 || tok.closing {
		return ""
	}
	switch tok.name {
	case "figure", "div", "picture":
		return tok.name
	case "img":
		if util.IsBlank(line[size:]) {
			return "img"
		}
	}
	return ""
}

// Open starts the construct on the current line.
func (p *htmlMediaParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 || pos >= len(line) {
		return nil, parser.NoChildren
	}
	content := line[pos:]
	outer := mediaOuterTag(content)
	if outer == "" {
		return nil, parser.NoChildren
	}
	// Like HTML blocks of CommonMark's seventh kind, a lone <img> or
	// <picture> does not interrupt a paragraph: it is inline content.
	if (outer == "img" || outer == "picture") && ast.IsParagraph(pc.LastOpenedBlock().Node) {
		return nil, parser.NoChildren
	}
	node := &htmlMedia{outer: outer}
	if outer != "img" && !p.balancedBeforeBlank(reader.Source(), seg.Start+pos, outer) {
		return nil, parser.NoChildren
	}
	node.addLine(content)
	reader.AdvanceToEOL()
	return node, parser.NoChildren
}

// balancedBeforeBlank reports whether the element opened at the start of
// src closes before the first blank line.
func balancedBeforeBlank(src []byte, name string) bool {
	depth := 0
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i+1], src[i+1:]
		} else {
			src = nil
		}
		if util.IsBlank(line) {
			return false
		}
		depth += tagDepth(line, name)
		if depth <= 0 {
			return true
		}
	}
	return false
}

// tagDepth returns the number of <name> minus </name> tags in line.
func tagDepth(line []byte, name string) int {
	d := 0
	for _, t := range tokenizeHTML(string(line)) {
		if t.name == name {
			if t.closing {
				d--
			} else {
				d++
			}
		}
	}
	return d
}

func (n *htmlMedia) addLine(b []byte) {
	n.raw.Write(b)
	if n.outer == "img" {
		n.closed = true
		return
	}
	n.depth += tagDepth(b, n.outer)
	if n.depth <= 0 {
		n.closed = true
	}
}

// Continue consumes the next line of an open construct.
func (p *htmlMediaParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*htmlMedia)
	if n.closed {
		return parser.Close
	}
	line, _ := reader.PeekLine()
	if line == nil || util.IsBlank(line) {
		return parser.Close
	}
	n.addLine(line)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

// Close finishes the construct.
func (p *htmlMediaParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

// CanInterruptParagraph reports whether the construct may interrupt a paragraph.
func (p *htmlMediaParser) CanInterruptParagraph() bool { return true }

// CanAcceptIndentedLine reports whether the construct may start on an indented line.
func (p *htmlMediaParser) CanAcceptIndentedLine() bool { return false }
