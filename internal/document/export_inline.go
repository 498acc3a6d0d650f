package document

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// inlineCtx is where inline content is written; it decides how hard
// breaks and some characters are written.
type inlineCtx int

const (
	ctxParagraph inlineCtx = iota
	ctxHeading
	ctxTableCell
)

func (w *mdWriter) paragraph(n Node) string {
	if a := dataString(n, "align"); a != "" {
		return htmlAligned("p", a, w.htmlInlines(n.Nodes))
	}
	s := w.inlines(trimTrailingBreaks(n.Nodes), ctxParagraph)
	if s == "" {
		return ""
	}
	if only := loneInlineImage(n.Nodes); only != nil {
		// A paragraph holding only an image is written as HTML, which
		// keeps it an inline image rather than an image block.
		return w.htmlInlineImage(*only)
	}
	return fixLineEdges(s)
}

// trimTrailingBreaks drops hard breaks that end a paragraph: Markdown
// cannot express them.
func trimTrailingBreaks(nodes []Node) []Node {
	k := len(nodes) - 1
	if k < 0 || nodes[k].Object != ObjectText || len(nodes[k].Leaves) == 0 {
		return nodes
	}
	leaves := nodes[k].Leaves
	last := leaves[len(leaves)-1]
	trimmed := strings.TrimRight(last.Text, "\n")
	if trimmed == last.Text {
		return nodes
	}
	out := append([]Node(nil), nodes...)
	t := out[k]
	t.Leaves = append(append([]Leaf(nil), leaves[:len(leaves)-1]...), Leaf{Text: trimmed, Marks: last.Marks})
	out[k] = t
	return out
}

// loneInlineImage returns the inline image that is a paragraph's only
// content.
func loneInlineImage(nodes []Node) *Node {
	var img *Node
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == ObjectInline && n.Type == InlineImage && img == nil:
			img = n
		case n.Object == ObjectText:
			for _, l := range n.Leaves {
				if strings.TrimSpace(l.Text) != "" {
					return nil
				}
			}
		default:
			return nil
		}
	}
	return img
}

func (w *mdWriter) heading(n Node) string {
	level := min(headingLevel(n.Type)+w.opts.headingOffset, 6)
	if a := dataString(n, "align"); a != "" {
		return htmlAligned("h"+strconv.Itoa(level), a, w.htmlInlines(n.Nodes)+headingAnchor(n))
	}
	s := strings.Repeat("#", level) + " " + strings.TrimSpace(w.inlines(n.Nodes, ctxHeading))
	return s + headingAnchor(n)
}

// headingAnchor writes a heading's custom anchor as GitBook does.
func headingAnchor(n Node) string {
	if id := dataString(n, "id"); id != "" {
		return ` <a href="#` + escapeHTMLAttr(id) + `" id="` + escapeHTMLAttr(id) + `"></a>`
	}
	return ""
}

// htmlAligned writes an aligned paragraph or heading as an HTML element
// with an align attribute, the one form Markdown has for alignment.
func htmlAligned(tag, align, inner string) string {
	switch align {
	case "start":
		align = "left"
	case "end":
		align = "right"
	}
	return "<" + tag + ` align="` + escapeHTMLAttr(align) + `">` + inner + "</" + tag + ">"
}

// fixLineEdges protects what Markdown would strip or misread at the start
// and end of paragraph lines: leading and trailing spaces become
// character references, and block markers are escaped.
func fixLineEdges(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		hardBreak := strings.HasSuffix(l, "\\") && i < len(lines)-1
		body := l
		if hardBreak {
			body = l[:len(l)-1]
		}
		body = escapeLineStart(body)
		if n := len(body); n > 0 && (body[n-1] == ' ' || body[n-1] == '\t') {
			body = body[:n-1] + charRef(body[n-1])
		}
		if hardBreak {
			body += "\\"
		}
		lines[i] = body
	}
	return strings.Join(lines, "\n")
}

func charRef(c byte) string {
	if c == '\t' {
		return "&#x9;"
	}
	return "&#x20;"
}

// escapeLineStart escapes a line start that Markdown would read as a
// block marker: headings, quotes, list markers, setext underlines.
func escapeLineStart(l string) string {
	if l == "" {
		return l
	}
	switch c := l[0]; {
	case c == ' ' || c == '\t':
		return charRef(c) + l[1:]
	case c == '#' || c == '>':
		return "\\" + l
	case c == '-' || c == '+':
		if len(l) == 1 || l[1] == ' ' || l[1] == '\t' || l[1] == '-' {
			return "\\" + l
		}
	case c == '=':
		if strings.Trim(l, "= \t") == "" {
			return "\\" + l
		}
	case c >= '0' && c <= '9':
		i := 0
		for i < len(l) && i < 10 && l[i] >= '0' && l[i] <= '9' {
			i++
		}
		if i < len(l) && (l[i] == '.' || l[i] == ')') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t') {
			return l[:i] + "\\" + l[i:]
		}
	}
	return l
}

// inlines renders text and inline nodes.
func (w *mdWriter) inlines(nodes []Node, ctx inlineCtx) string {
	var b strings.Builder
	var run []Leaf
	rendered := make([]string, len(nodes))
	for i, n := range nodes {
		if n.Object == ObjectInline {
			rendered[i] = w.inline(n, ctx)
		}
	}
	for i, n := range nodes {
		if n.Object == ObjectText {
			run = append(run, n.Leaves...)
			continue
		}
		if n.Object != ObjectInline {
			continue
		}
		if len(run) > 0 {
			w.writeRun(&b, run, firstRune(rendered[i]), ctx)
			run = run[:0]
		}
		b.WriteString(rendered[i])
	}
	if len(run) > 0 {
		w.writeRun(&b, run, noRune, ctx)
	}
	return b.String()
}

// noRune stands for the start or end of the text.
const noRune rune = -1

func firstRune(s string) rune {
	if s == "" {
		return noRune
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func lastRune(s string) rune {
	if s == "" {
		return noRune
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func (w *mdWriter) inline(n Node, ctx inlineCtx) string {
	switch n.Type {
	case InlineLink:
		return "[" + w.inlines(n.Nodes, ctx) + "](" + formatTarget(w.target(n, "ref", UseLink)) + titleSuffix(n) + ")"
	case InlineMention:
		t := w.target(n, "ref", UseMention)
		return "[" + escapeText(t, ctx) + "](" + formatTarget(t) + ` "mention")`
	case InlineImage:
		if dataString(n, "size") != "" || n.Data["refDark"] != nil {
			return w.htmlInlineImage(n)
		}
		return "![" + escapeText(dataString(n, "alt"), ctx) + "](" + formatTarget(w.target(n, "ref", UseImage)) + titleSuffix(n) + ")"
	case InlineEmoji:
		return EmojiFromCode(dataString(n, "code"))
	case InlineMath:
		return "$$" + dataString(n, "formula") + "$$"
	case InlineAnnotation:
		return w.annotation(n, ctx)
	case InlineRaw:
		return dataString(n, "markdown")
	}
	return w.htmlInline(n)
}

// formatTarget writes a link destination, in angle brackets when it holds
// spaces or characters that would end it.
func formatTarget(t string) string {
	if t == "" {
		return "<>"
	}
	t = strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "%0A").Replace(t)
	if !strings.ContainsAny(t, " \t()\\") {
		return t
	}
	return "<" + t + ">"
}

// escapeText escapes Markdown syntax characters in text.
func escapeText(s string, ctx inlineCtx) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<':
			b.WriteByte('\\')
		case '~':
			// A character reference, unlike "\~", never joins a
			// following strikethrough delimiter.
			b.WriteString("&#x7E;")
			continue
		case '|':
			if ctx == ctxTableCell {
				b.WriteByte('\\')
			}
		case '#':
			if ctx == ctxHeading {
				b.WriteByte('\\')
			}
		case '$':
			if i+1 < len(s) && s[i+1] == '$' || i > 0 && s[i-1] == '$' {
				b.WriteByte('\\')
			}
		case '{':
			if i+1 < len(s) && s[i+1] == '%' {
				b.WriteByte('\\')
			}
		case '&':
			if entityLen([]byte(s[i:min(len(s), i+40)])) > 0 {
				b.WriteByte('\\')
			}
		case '\n':
			if ctx == ctxParagraph {
				b.WriteString("\\\n")
			} else {
				b.WriteString("<br>")
			}
			continue
		case '\r':
			continue
		case 0:
			b.WriteString("\uFFFD")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// titleSuffix writes a link or image title as ` "title"`, or "".
func titleSuffix(n Node) string {
	t := dataString(n, "title")
	if t == "" {
		return ""
	}
	t = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(t)
	return ` "` + t + `"`
}
