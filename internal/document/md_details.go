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
	// verbatim is set when the matching </details> shares a line with
	// other content: the lines up to it are kept as written (Lines), so
	// that the blocks after it stay outside.
	verbatim bool
	end      int // offset of the matching </details> when verbatim
}

// Kind returns the node kind.
func (n *detailsBlock) Kind() ast.NodeKind { return kindDetailsBlock }

// Dump writes the node for debugging.
func (n *detailsBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// detailsParser parses <details> blocks. It pairs the openings and
// closings of a source once, so that many openings cost linear time.
type detailsParser struct {
	closes  map[int]int // offset of a <details to that of its </details>
	indexed bool
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
	src := reader.Source()
	if !p.indexed {
		p.closes, p.indexed = pairDetails(src), true
	}
	end, ok := p.closes[seg.Start+pos]
	if !ok || end < seg.Stop {
		// No end, or one on the same line: an HTML block.
		return nil, parser.NoChildren
	}
	node := &detailsBlock{}
	if !aloneOnLine(src, end, len("</details>")) {
		node.verbatim, node.end = true, end
		node.Lines().Append(seg)
		reader.AdvanceToEOL()
		return node, parser.NoChildren
	}
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
	if n.verbatim {
		_, seg := reader.PeekLine()
		n.Lines().Append(seg)
		reader.AdvanceToEOL()
		if seg.Stop > n.end {
			n.closed = true
			return parser.Close
		}
		return parser.Continue | parser.NoChildren
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

// pairDetails pairs every <details opening of src with its </details>,
// counting nesting, ASCII case-insensitively.
func pairDetails(src []byte) map[int]int {
	pairs := map[int]int{}
	var open []int
	for i := 0; i < len(src); i++ {
		if src[i] != '<' {
			continue
		}
		rest := src[i:]
		switch {
		case hasPrefixFold(rest, "</details>"):
			if n := len(open); n > 0 {
				pairs[open[n-1]] = i
				open = open[:n-1]
			}
		case hasPrefixFold(rest, "<details") && len(rest) > len("<details") &&
			(rest[len("<details")] == '>' || rest[len("<details")] == ' ' || rest[len("<details")] == '\t'):
			open = append(open, i)
		}
	}
	return pairs
}

// hasPrefixFold reports whether b starts with the lower-case word, ASCII
// case-insensitively.
func hasPrefixFold(b []byte, word string) bool {
	return len(b) >= len(word) && bytes.EqualFold(b[:len(word)], []byte(word))
}

// aloneOnLine reports whether the size bytes at offset i of src are the
// only content of their line, past container markers (spaces, '>').
func aloneOnLine(src []byte, i, size int) bool {
	for j := i - 1; j >= 0 && src[j] != '\n'; j-- {
		if c := src[j]; c != ' ' && c != '\t' && c != '>' {
			return false
		}
	}
	for j := i + size; j < len(src) && src[j] != '\n'; j++ {
		if c := src[j]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
