package document

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkDefinitions is the paragraph transformer that takes link reference
// definitions ("[label]: /url 'title'") off the start of a paragraph and
// records them for reference links. It stands in for goldmark's own and
// finds the same definitions, but in time linear in the paragraph:
// goldmark's looks up the line of every value it reads by walking back
// from the paragraph's last line, and removes each definition's lines by
// copying all the lines after it, so a paragraph of N definitions cost
// N² steps. Each definition found counts against the node budget.
type linkDefinitions struct {
	state *convState
	found int
	// examined counts the bytes the reader looked at, so tests can
	// check that the work stays proportional to the input.
	examined int
	// reordered is set once a paragraph kept lines between definitions
	// and then gave two more. goldmark removes the wrong lines there;
	// this transformer keeps those that no definition took.
	reordered bool
}

// Transform takes the definitions at the start of node off it, inserts
// them before it as definition nodes and removes it when nothing else
// is left.
func (t *linkDefinitions) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines().Sliced(0, node.Lines().Len())
	if len(lines) == 0 {
		return
	}
	r := newDefReader(reader.Source(), lines)
	var removes [][2]int
	for {
		def, ok := r.definition()
		t.examined += r.examined
		r.examined = 0
		if !ok {
			break
		}
		if t.found++; t.found%1024 == 0 {
			t.state.checkContext()
		}
		if !t.state.spend(1, "link definitions") {
			break
		}
		t.insert(node, reader.Source(), lines, def)
		pc.AddReference(parser.NewReference(def.label, def.destination, def.title))
		start, end := def.start, def.end
		if start == end {
			end++
		}
		removes = append(removes, [2]int{start, end})
	}
	if len(removes) == 0 {
		return
	}
	for i := 1; i < len(removes)-1; i++ {
		t.reordered = t.reordered || removes[i][0] > removes[i-1][1]
	}
	kept := keptLines(lines, removes)
	if len(kept) == 0 {
		node.Parent().RemoveChild(node.Parent(), node)
		return
	}
	rest := text.NewSegments()
	rest.AppendAll(kept)
	node.SetLines(rest)
}

// insert puts the definition's node before the paragraph, with the
// lines it was read from, as goldmark does.
func (t *linkDefinitions) insert(node *ast.Paragraph, src []byte, lines []text.Segment, def linkDef) {
	ref := ast.NewLinkReferenceDefinition(def.label, def.destination, def.title)
	if def.start == 0 {
		ref.SetBlankPreviousLines(node.HasBlankPreviousLines())
	}
	node.Parent().InsertBefore(node.Parent(), node, ref)
	ref.Lines().Append(def.at)
	for i := def.start + 1; i < def.end; i++ {
		ref.Lines().Append(lines[i])
	}
	last := ref.Lines().Len() - 1
	seg := ref.Lines().At(last)
	ref.Lines().Set(last, seg.TrimRightSpace(src))
}

// keptLines returns the lines outside the ranges removes, which are in
// order and do not overlap.
func keptLines(lines []text.Segment, removes [][2]int) []text.Segment {
	kept := make([]text.Segment, 0, len(lines))
	next := 0
	for _, rm := range removes {
		if rm[0] > next {
			kept = append(kept, lines[next:min(rm[0], len(lines))]...)
		}
		next = max(next, rm[1])
	}
	if next < len(lines) {
		kept = append(kept, lines[next:]...)
	}
	return kept
}

// linkDef is one definition read: its label, destination and title as
// written, the segment where it starts, and the range of lines it takes
// from the paragraph.
type linkDef struct {
	label, destination, title []byte
	at                        text.Segment
	start, end                int
}

// defReader reads link reference definitions from the lines of a
// paragraph. It moves through the lines as goldmark's block reader does
// (tabs split by a container leave padding, read as spaces), so that it
// finds the definitions goldmark would, but every step it takes costs
// constant time.
type defReader struct {
	src   []byte
	lines []text.Segment
	line  int
	pos   text.Segment
	last  int
	// examined counts the bytes looked at since it was last reset.
	examined int
}

func newDefReader(src []byte, lines []text.Segment) *defReader {
	return &defReader{src: src, lines: lines, pos: lines[0], last: lines[len(lines)-1].Stop}
}

// eof reports whether the reader has passed the last line.
func (r *defReader) eof() bool {
	return r.line >= len(r.lines) || r.pos.Start < 0 || r.pos.Start >= r.last
}

// peek returns the next byte, a space while padding remains, or
// text.EOF.
func (r *defReader) peek() byte {
	if r.eof() {
		return text.EOF
	}
	if r.pos.Padding != 0 {
		return ' '
	}
	return r.src[r.pos.Start]
}

// rest returns what is left of the current line, without its padding,
// and whether there is a line.
func (r *defReader) rest() ([]byte, bool) {
	if r.eof() {
		return nil, false
	}
	return r.src[r.pos.Start:r.pos.Stop], true
}

// restBlank reports whether the current line has nothing but spaces
// left, or there is no line.
func (r *defReader) restBlank() bool {
	line, ok := r.rest()
	if !ok {
		return true
	}
	for _, c := range line {
		r.examined++
		if !util.IsSpace(c) {
			return false
		}
	}
	return true
}

// nextLine moves to the start of the next line.
func (r *defReader) nextLine() {
	r.line++
	if r.line < len(r.lines) {
		r.pos = r.lines[r.line]
	}
}

// advance moves n bytes on, padding first, and to the next line past
// the end of one.
func (r *defReader) advance(n int) {
	if n < r.pos.Stop-r.pos.Start && r.pos.Padding == 0 {
		r.pos.Start += n
		return
	}
	for ; n > 0; n-- {
		switch {
		case r.pos.Padding != 0:
			r.pos.Padding--
		case r.pos.Start >= r.pos.Stop-1 && r.pos.Stop < r.last:
			r.nextLine()
		default:
			r.pos.Start++
		}
	}
}

// skipSpaces moves past spaces, line ends included, and returns how
// many it passed.
func (r *defReader) skipSpaces() int {
	n := 0
	for {
		c := r.peek()
		r.examined++
		if c == text.EOF || !util.IsSpace(c) {
			return n
		}
		n++
		r.advance(1)
	}
}

// span is a part of one line, with the line's index.
type span struct {
	seg  text.Segment
	line int
}

// closing reads up to the closer, over line ends, and returns the parts
// of the lines read before it. It fails at an unescaped opener, or when
// the paragraph ends first; it then stays where it stopped, as goldmark
// does.
func (r *defReader) closing(opener, closer byte) ([]span, bool) {
	var parts []span
	for !r.eof() {
		seg, line := r.pos, r.line
		bs := r.src[seg.Start:seg.Stop]
		// i counts the padding as leading spaces, as goldmark does.
		for i := seg.Padding; i-seg.Padding < len(bs); i++ {
			r.examined++
			c := bs[i-seg.Padding]
			switch {
			case c == '\\' && i-seg.Padding < len(bs)-1 && util.IsPunct(bs[i-seg.Padding+1]):
				i++
			case c == closer:
				parts = append(parts, span{seg.WithStop(seg.Start + i - seg.Padding), line})
				r.advance(i + 1)
				return parts, true
			case c == opener:
				return nil, false
			}
		}
		r.nextLine()
		parts = append(parts, span{seg, line})
	}
	return nil, false
}

// value returns the text of parts as goldmark's block reader gives it:
// each part is preceded by its line's padding, and a part that runs to
// the end of its line is followed by the next line's padding.
func (r *defReader) value(parts []span) []byte {
	// Never nil: an empty title is still a title.
	out := []byte{}
	for _, p := range parts {
		ln := r.lines[p.line]
		out = appendSpaces(out, ln.Padding)
		out = append(out, r.src[p.seg.Start:min(p.seg.Stop, ln.Stop)]...)
		r.examined += p.seg.Stop - p.seg.Start
		if p.seg.Stop >= ln.Stop && p.line+1 < len(r.lines) {
			out = appendSpaces(out, r.lines[p.line+1].Padding)
		}
	}
	return out
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// destination reads a link destination: <...> on one line, or bytes up
// to a space with parentheses balanced.
func (r *defReader) destination() ([]byte, bool) {
	r.skipSpaces()
	line, _ := r.rest()
	if r.peek() == '<' {
		for i := 1; i < len(line); i++ {
			r.examined++
			switch c := line[i]; {
			case c == '\\' && i < len(line)-1 && util.IsPunct(line[i+1]):
				i++
			case c == '>':
				r.advance(i + 1)
				return line[1:i], true
			}
		}
		return nil, false
	}
	opened, i := 0, 0
scan:
	for ; i < len(line); i++ {
		r.examined++
		switch c := line[i]; {
		case c == '\\' && i < len(line)-1 && util.IsPunct(line[i+1]):
			i++
		case c == '(':
			opened++
		case c == ')':
			if opened--; opened < 0 {
				break scan
			}
		case util.IsSpace(c):
			break scan
		}
	}
	r.advance(i)
	return line[:i], i != 0
}

// definition reads one definition where the reader is, after spaces.
// It gives the same definitions as goldmark, including where goldmark
// departs from CommonMark: a title followed by more text on its line
// is kept, and the definition then ends before its destination's line.
func (r *defReader) definition() (linkDef, bool) {
	var d linkDef
	r.skipSpaces()
	if r.peek() != '[' {
		return d, false
	}
	d.start, d.at = r.line, r.pos
	r.advance(1)
	parts, ok := r.closing('[', ']')
	if !ok {
		return d, false
	}
	d.label = r.value(parts)
	if util.IsBlank(d.label) || r.peek() != ':' {
		return d, false
	}
	r.advance(1)
	if d.destination, ok = r.destination(); !ok {
		return d, false
	}
	endsLine := r.restBlank()
	destLine := r.line
	spaces := r.skipSpaces()
	opener := r.peek()
	closer := opener
	switch opener {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		d.end = destLine + 1
		return d, endsLine
	}
	if spaces == 0 {
		return d, false
	}
	r.advance(1)
	parts, ok = r.closing(opener, closer)
	if !ok {
		r.nextLine()
		d.end = destLine + 1
		return d, endsLine
	}
	d.title = r.value(parts)
	if !r.restBlank() {
		d.end = destLine
		return d, endsLine
	}
	d.end = r.line + 1
	return d, true
}
