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

type detailsParser struct{}

// Trigger returns the characters that may start the construct.
func (detailsParser) Trigger() []byte { return []byte{'<'} }

// Open starts the construct on the current line.
func (detailsParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
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
	if !bytes.Contains(bytes.ToLower(reader.Source()[seg.Start:]), []byte("</details>")) {
		return nil, parser.NoChildren
	}
	node := &detailsBlock{}
	rest = bytes.TrimSpace(rest)
	if s, ok := summaryOf(rest); ok {
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
	if end < len("<summary>") {
		return "", false
	}
	return string(bytes.TrimSpace(line[len("<summary>"):end])), true
}

// Continue consumes the next line of an open construct.
func (detailsParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
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
func (detailsParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

// CanInterruptParagraph reports whether the construct may interrupt a paragraph.
func (detailsParser) CanInterruptParagraph() bool { return true }

// CanAcceptIndentedLine reports whether the construct may start on an indented line.
func (detailsParser) CanAcceptIndentedLine() bool { return false }
