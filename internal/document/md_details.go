package document

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// detailsBlock is an expandable: <details>, <summary>…</summary>, the body
// as Markdown children, then </details>.
type detailsBlock struct {
	ast.BaseBlock
	summary    string
	hasSummary bool
	closed     bool
}

// Kind returns the node kind.
func (n *detailsBlock) Kind() ast.NodeKind { return kindDetailsBlock }

// Dump writes the node for debugging.
func (n *detailsBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// detailsParser parses <details> blocks. It finds the last </details> of
// a source once, so that many openings cost linear time.
type detailsParser struct {
	lastClose int // offset of the last </details>, -1 for none
	indexed   bool
}

// Trigger returns the characters that may start the construct.
func (p *detailsParser) Trigger() []byte { return []byte{'<'} }

// Open starts the construct on the current line.
func (p *detailsParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 {
		return nil, parser.NoChildren
	}
	trimmed := bytes.TrimSpace(line[pos:])
	lower := bytes.ToLower(trimmed)
	var rest []byte
	switch {
	case bytes.HasPrefix(lower, []byte("<details>")):
		rest = trimmed[len("<details>"):]
	case bytes.HasPrefix(lower, []byte("<details open>")):
		rest = trimmed[len("<details open>"):]
	default:
		return nil, parser.NoChildren
	}
	if !p.indexed {
		p.lastClose, p.indexed = lastIndexFold(reader.Source(), []byte("</details>")), true
	}
	if p.lastClose < seg.Start {
		return nil, parser.NoChildren
	}
	node := &detailsBlock{}
	rest = bytes.TrimSpace(rest)
	if len(rest) > 0 {
		s, ok := summaryOf(rest)
		if !ok {
			// More HTML on the line: an HTML block, kept as written.
			return nil, parser.NoChildren
		}
		node.summary, node.hasSummary = s, true
	}
	reader.AdvanceToEOL()
	return node, parser.HasChildren
}

// summaryOf returns the inner text of a <summary>…</summary> line.
func summaryOf(line []byte) (string, bool) {
	lower := bytes.ToLower(line)
	if !bytes.HasPrefix(lower, []byte("<summary>")) {
		return "", false
	}
	end := bytes.LastIndex(lower, []byte("</summary>"))
	if end < len("<summary>") || end+len("</summary>") != len(line) {
		return "", false
	}
	return string(bytes.TrimSpace(line[len("<summary>"):end])), true
}

// Continue consumes the next line of an open construct.
func (p *detailsParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*detailsBlock)
	if n.closed {
		return parser.Close
	}
	line, _ := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w <= 3 && pos < len(line) {
		trimmed := bytes.TrimSpace(line[pos:])
		if bytes.EqualFold(trimmed, []byte("</details>")) {
			reader.AdvanceToEOL()
			n.closed = true
			return parser.Close
		}
		if !n.hasSummary && n.ChildCount() == 0 {
			if s, ok := summaryOf(trimmed); ok {
				n.summary, n.hasSummary = s, true
				reader.AdvanceToEOL()
				return parser.Continue | parser.NoChildren
			}
		}
	}
	return parser.Continue | parser.HasChildren
}

// Close finishes the construct.
func (p *detailsParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

// CanInterruptParagraph reports whether the construct may interrupt a paragraph.
func (p *detailsParser) CanInterruptParagraph() bool { return true }

// CanAcceptIndentedLine reports whether the construct may start on an indented line.
func (p *detailsParser) CanAcceptIndentedLine() bool { return false }

// lastIndexFold returns the offset of the last ASCII case-insensitive
// occurrence of the lower-case word in src, or -1.
func lastIndexFold(src, word []byte) int {
	for i := len(src) - len(word); i >= 0; i-- {
		if bytes.EqualFold(src[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}
