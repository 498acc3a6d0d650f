package document

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Node kinds of the Markdown syntax tree built by this package's parsers.
// They only need to be distinct from goldmark's own kinds.
const (
	kindTagBlock ast.NodeKind = 1<<16 + iota
	kindDetailsBlock
	kindHTMLMedia
	kindMathBlock
	kindMathInline
	kindStopBlock
)

// tagBlock is a {% name attrs %}…{% endname %} block; its children are
// the Markdown between the tags.
type tagBlock struct {
	ast.BaseBlock
	tag    liquidTag
	body   string // content written on the opening line, for one-line forms
	oneTag bool   // no end tag: the block is the opening tag alone
	closed bool
	// verbatim blocks are not parsed: raw holds their source, opening
	// and end tags included, as the lines reached the parser (inside
	// their containers' markers), and depth counts the tags of the same
	// name still open.
	verbatim bool
	raw      bytes.Buffer
	depth    int
}

// source returns the block's source without its final line end.
func (n *tagBlock) source() string {
	return string(bytes.TrimRight(n.raw.Bytes(), "\r\n"))
}

// Kind returns the node kind.
func (n *tagBlock) Kind() ast.NodeKind { return kindTagBlock }

// Dump writes the node for debugging.
func (n *tagBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// tagParser parses {% tag %} blocks. On its first use for a source it
// indexes every tag of the source once, so that whether an opening tag
// has an end costs a lookup however deeply tags nest.
type tagParser struct {
	index *tagIndex
}

// Trigger returns the characters that may start the construct.
func (*tagParser) Trigger() []byte { return []byte{'{'} }

// tagIndex tells, for the opening tags of one source, keyed by the offset
// just past the tag, which have a matching end tag.
type tagIndex struct {
	// closed holds the opening tags whose end tag follows, nested tags
	// of the same name counted.
	closed map[int]bool
	// endNext holds the opening tags for which the next tag of the same
	// name is an end tag (an embed's end tag is optional).
	endNext map[int]bool
	// opens holds every opening tag.
	opens map[int]bool
}

// indexTags scans src once for tags and matches ends to openings.
func indexTags(src []byte) *tagIndex {
	x := &tagIndex{closed: map[int]bool{}, endNext: map[int]bool{}, opens: map[int]bool{}}
	stacks := map[string][]int{}
	pending := map[string]int{}
	for i := 0; ; {
		at, tag, size, ok := nextTag(src, i)
		if !ok {
			break
		}
		i = at + size
		if !tag.isEnd() {
			x.opens[i] = true
			stacks[tag.name] = append(stacks[tag.name], i)
			pending[tag.name] = i
			continue
		}
		name := tag.name[3:]
		if st := stacks[name]; len(st) > 0 {
			x.closed[st[len(st)-1]] = true
			stacks[name] = st[:len(st)-1]
		}
		if at, ok := pending[name]; ok {
			x.endNext[at] = true
			delete(pending, name)
		}
	}
	return x
}

// hasEnd reports whether an end tag for name follows the opening tag
// that ends at offset off of src.
func (p *tagParser) hasEnd(src []byte, off int, name string, stopAtOpen bool) bool {
	if p.index == nil {
		p.index = indexTags(src)
	}
	if !p.index.opens[off] {
		// Not a tag the scan of the whole source saw: look ahead.
		return hasEndTag(src[off:], name, stopAtOpen)
	}
	if stopAtOpen {
		return p.index.endNext[off]
	}
	return p.index.closed[off]
}

// Open starts the construct on the current line.
func (p *tagParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 || pos >= len(line) {
		return nil, parser.NoChildren
	}
	tag, size, ok := parseLiquidTag(line[pos:])
	if !ok || tag.isEnd() {
		return nil, parser.NoChildren
	}
	node := &tagBlock{tag: tag}
	rest := line[pos+size:]
	switch {
	case tag.name == "include" || tag.name == "page-ref" || tag.name == "else":
		node.oneTag = true
		node.raw.Write(line[pos:])
	case isIntegrationTag(tag.name) && util.IsBlank(rest) &&
		!p.hasEnd(reader.Source(), seg.Start+pos+size, tag.name, false):
		// An integration block is one tag on a line of its own.
		node.oneTag = true
		node.verbatim = true
		node.raw.Write(line[pos:])
	case tag.name == "embed" || tag.name == "file":
		// Their end tag is optional: a lone tag has no caption.
		node.oneTag = !bytes.Contains(rest, []byte("{%")) &&
			!p.hasEnd(reader.Source(), seg.Start+pos+size, tag.name, true)
	default:
		if !p.hasEnd(reader.Source(), seg.Start+pos+size, tag.name, false) {
			return nil, parser.NoChildren
		}
	}
	if node.verbatim {
		node.closed = true
		reader.AdvanceToEOL()
		return node, parser.NoChildren
	}
	if isVerbatimTag(tag.name) {
		node.verbatim = true
		node.addRawLine(line[pos:])
		reader.AdvanceToEOL()
		return node, parser.NoChildren
	}
	if node.oneTag {
		node.closed = true
		reader.AdvanceToEOL()
		return node, parser.NoChildren
	}
	if end := endTagIndex(rest, tag.name); end >= 0 {
		node.body = string(bytes.TrimSpace(rest[:end]))
		node.closed = true
		reader.AdvanceToEOL()
		return node, parser.NoChildren
	}
	if util.IsBlank(rest) {
		reader.AdvanceToEOL()
	} else {
		reader.Advance(pos + size)
	}
	return node, parser.HasChildren
}

// Continue consumes the next line of an open construct.
func (*tagParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*tagBlock)
	if n.closed {
		return parser.Close
	}
	line, _ := reader.PeekLine()
	if n.verbatim {
		if line == nil {
			return parser.Close
		}
		n.addRawLine(line)
		reader.AdvanceToEOL()
		return parser.Continue | parser.NoChildren
	}
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w <= 3 && pos < len(line) {
		if tag, size, ok := parseLiquidTag(line[pos:]); ok && tag.isEnd() && tag.name[3:] == n.tag.name &&
			util.IsBlank(line[pos+size:]) {
			reader.AdvanceToEOL()
			n.closed = true
			return parser.Close
		}
	}
	return parser.Continue | parser.HasChildren
}

// Close finishes the construct.
func (*tagParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

// CanInterruptParagraph reports whether the construct may interrupt a paragraph.
func (*tagParser) CanInterruptParagraph() bool { return true }

// CanAcceptIndentedLine reports whether the construct may start on an indented line.
func (*tagParser) CanAcceptIndentedLine() bool { return false }

// hasEndTag reports whether src holds the end tag matching an opening tag
// named name, counting nested tags of the same name. With stopAtOpen, a
// second opening tag of the same name ends the search (used for embeds,
// whose end tag is optional).
func hasEndTag(src []byte, name string, stopAtOpen bool) bool {
	depth := 1
	for i := 0; ; {
		at, tag, size, ok := nextTag(src, i)
		if !ok {
			return false
		}
		i = at + size
		switch {
		case tag.name == name:
			if stopAtOpen {
				return false
			}
			depth++
		case tag.isEnd() && tag.name[3:] == name:
			depth--
			if depth == 0 {
				return true
			}
		}
	}
}

// endTagIndex returns the offset of {% end<name> %} in line, or -1.
func endTagIndex(line []byte, name string) int {
	for i := 0; ; {
		at, tag, _, ok := nextTag(line, i)
		if !ok {
			return -1
		}
		if tag.isEnd() && tag.name[3:] == name {
			return at
		}
		i = at + 2
	}
}

// nextTag finds the first tag in src at or after offset i that is not
// escaped with a backslash, and returns its offset, the tag and its size.
func nextTag(src []byte, i int) (at int, tag liquidTag, size int, ok bool) {
	for i < len(src) {
		j := bytes.Index(src[i:], []byte("{%"))
		if j < 0 {
			break
		}
		i += j
		if tag, size, ok := parseLiquidTag(src[i:]); ok && (i == 0 || src[i-1] != '\\') {
			return i, tag, size, true
		}
		i += 2
	}
	return 0, liquidTag{}, 0, false
}

// isIntegrationTag reports whether name is an integration block's tag,
// such as "@github-files/github-code-block".
func isIntegrationTag(name string) bool { return len(name) > 1 && name[0] == '@' }

// addRawLine adds a line to a verbatim block and closes the block once
// its end tag is reached.
func (n *tagBlock) addRawLine(line []byte) {
	n.raw.Write(line)
	for i := 0; ; {
		at, tag, size, ok := nextTag(line, i)
		if !ok {
			break
		}
		i = at + size
		switch {
		case tag.name == n.tag.name:
			n.depth++
		case tag.isEnd() && tag.name[3:] == n.tag.name:
			n.depth--
		}
	}
	if n.depth <= 0 {
		n.closed = true
	}
}

// isVerbatimTag reports whether blocks of the named tag are kept as their
// source rather than parsed: tags this package does not model, and those
// whose body it reads from the source (OpenAPI, swagger and prompts).
func isVerbatimTag(name string) bool {
	switch name {
	case "hint", "tabs", "tab", "stepper", "step", "columns", "column", "code", "embed",
		"content-ref", "page-ref", "file", "if", "else", "include", "updates", "update":
		return false
	}
	return true
}
