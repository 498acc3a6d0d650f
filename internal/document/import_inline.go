package document

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// inlineConv converts goldmark inline nodes to text and inline nodes. It
// keeps a stack of active marks, so that marks opened by HTML tags such as
// <kbd> apply until their closing tag, and a stack of frames collecting
// the content of elements such as links.
type inlineConv struct {
	c      *converter
	marks  []Mark
	frames []*inlineFrame
	open   []openElement
	anchor string // custom heading anchor id

	// pending collects text with pendMarks before it becomes a leaf, so
	// that long runs of text are not built by repeated concatenation.
	pending   strings.Builder
	pendMarks []Mark

	// root and frameBuf back the first frames, so that converting a short
	// run of inlines allocates once.
	root     inlineFrame
	frameBuf [4]*inlineFrame
}

// inlineFrame collects the nodes of an element being converted.
type inlineFrame struct {
	kind  string // "", "link", "button", "mention", "icon", "expression", "emoji", "anchor"
	tag   htmlToken
	ref   Ref
	title string // a link's title
	nodes []Node
}

// openElement is an HTML element whose closing tag is awaited.
type openElement struct {
	name  string
	mark  string
	frame *inlineFrame
}

func (c *converter) newInlineConv() *inlineConv {
	ic := &inlineConv{c: c}
	ic.frames = append(ic.frameBuf[:0], &ic.root)
	return ic
}

func (ic *inlineConv) top() *inlineFrame { return ic.frames[len(ic.frames)-1] }

// finish closes what is still open and returns the converted nodes.
func (ic *inlineConv) finish() []Node {
	for len(ic.frames) > 1 {
		ic.closeFrame()
	}
	ic.flush()
	return ic.frames[0].nodes
}

// enter starts collecting the content of an element in a new frame.
func (ic *inlineConv) enter(f *inlineFrame) {
	ic.flush()
	ic.frames = append(ic.frames, f)
}

func (ic *inlineConv) children(n ast.Node) {
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		ic.inline(ch)
	}
}

func (ic *inlineConv) inline(n ast.Node) {
	src := ic.c.src
	switch n := n.(type) {
	case *ast.Text:
		if n.IsRaw() {
			ic.addText(string(n.Segment.Value(src)))
		} else {
			ic.addText(unescapeMarkdown(n.Segment.Value(src)))
		}
		switch {
		case n.HardLineBreak():
			ic.addText("\n")
		case n.SoftLineBreak():
			ic.addText(" ")
		}
	case *ast.String:
		ic.addText(string(n.Value))
	case *ast.CodeSpan:
		var b strings.Builder
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if t, ok := ch.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
		}
		ic.withMark(Mark{Type: MarkCode}, func() { ic.addText(strings.ReplaceAll(b.String(), "\n", " ")) })
	case *ast.Emphasis:
		typ := MarkItalic
		if n.Level >= 2 {
			typ = MarkBold
		}
		ic.withMark(Mark{Type: typ}, func() { ic.children(n) })
	case *extast.Strikethrough:
		ic.withMark(Mark{Type: MarkStrikethrough}, func() { ic.children(n) })
	case *ast.Link:
		dest := unescapeMarkdown(n.Destination)
		title := unescapeMarkdown(n.Title)
		if title == "mention" {
			ic.addInline(Inline(InlineMention, map[string]any{"ref": ic.c.opts.refForTarget(dest, UseMention)}))
			return
		}
		ic.enter(&inlineFrame{kind: "link", ref: ic.c.opts.refForTarget(dest, UseLink), title: title})
		ic.children(n)
		ic.closeFrame()
	case *ast.AutoLink:
		url := string(n.URL(src))
		target := url
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
			target = "mailto:" + url
		}
		ic.enter(&inlineFrame{kind: "link", ref: ic.c.opts.refForTarget(target, UseLink)})
		ic.addText(url)
		ic.closeFrame()
	case *ast.Image:
		data := map[string]any{"ref": ic.c.opts.refForTarget(unescapeMarkdown(n.Destination), UseImage)}
		if alt := plainInlineText(ic.c, n); alt != "" {
			data["alt"] = alt
		}
		if title := unescapeMarkdown(n.Title); title != "" {
			data["title"] = title
		}
		ic.addInline(Inline(InlineImage, data))
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(src))
		}
		ic.markdownHTML(b.String())
	case *mathInline:
		ic.addInline(Inline(InlineMath, map[string]any{"formula": n.formula}))
	case *extast.FootnoteLink:
		ic.annotation(n.Index)
	case *extast.TaskCheckBox, *extast.FootnoteBacklink:
	default:
		ic.children(n)
	}
}

// plainInlineText returns the text of an inline node's children, as used
// for image alt texts.
func plainInlineText(c *converter, n ast.Node) string {
	sub := c.newInlineConv()
	sub.children(n)
	var b strings.Builder
	writePlainInlines(&b, sub.finish())
	return b.String()
}

func (ic *inlineConv) withMark(m Mark, f func()) {
	ic.marks = append(ic.marks, m)
	f()
	ic.removeMark(m.Type)
}

// removeMark drops the innermost active mark of the given type.
func (ic *inlineConv) removeMark(typ string) {
	for i := len(ic.marks) - 1; i >= 0; i-- {
		if ic.marks[i].Type == typ {
			ic.marks = slices.Delete(ic.marks, i, i+1)
			return
		}
	}
}

// currentMarks returns the active marks, deduplicated, in writing order.
func (ic *inlineConv) currentMarks() []Mark {
	if len(ic.marks) == 0 {
		return nil
	}
	var out []Mark
	for _, m := range ic.marks {
		if !hasMarkType(out, m.Type) {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Mark) int { return markRank(a.Type) - markRank(b.Type) })
	return out
}

func hasMarkType(marks []Mark, typ string) bool {
	for _, m := range marks {
		if m.Type == typ {
			return true
		}
	}
	return false
}

// addText appends text with the active marks; emoji outside code become
// emoji inlines.
func (ic *inlineConv) addText(s string) {
	if s == "" {
		return
	}
	marks := ic.currentMarks()
	if hasMarkType(marks, MarkCode) {
		ic.addLeaf(s, marks)
		return
	}
	start := 0
	for i := 0; i < len(s); {
		if s[i] < 0x80 {
			i++
			continue
		}
		n := EmojiLen(s[i:])
		if n == 0 {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		ic.addLeaf(s[start:i], marks)
		ic.addInline(Inline(InlineEmoji, map[string]any{"code": EmojiCode(s[i : i+n])}))
		i += n
		start = i
	}
	ic.addLeaf(s[start:], marks)
}

func (ic *inlineConv) addLeaf(s string, marks []Mark) {
	if s == "" {
		return
	}
	if ic.pending.Len() > 0 && !sameMarks(ic.pendMarks, marks) {
		ic.flush()
	}
	ic.pendMarks = marks
	ic.pending.WriteString(s)
}

// flush turns the pending text into a leaf of the current frame.
func (ic *inlineConv) flush() {
	if ic.pending.Len() == 0 {
		return
	}
	s, marks := ic.pending.String(), ic.pendMarks
	ic.pending.Reset()
	f := ic.top()
	if k := len(f.nodes); k > 0 && f.nodes[k-1].Object == ObjectText {
		t := &f.nodes[k-1]
		if last := &t.Leaves[len(t.Leaves)-1]; sameMarks(last.Marks, marks) {
			last.Text += s
			return
		}
		t.Leaves = append(t.Leaves, Leaf{Text: s, Marks: marks})
		return
	}
	f.nodes = append(f.nodes, Text(Leaf{Text: s, Marks: marks}))
}

func (ic *inlineConv) addInline(n Node) {
	ic.flush()
	f := ic.top()
	f.nodes = append(f.nodes, n)
}
