package document

import "strings"

// htmlInlines renders inline content as HTML, for captions and summaries.
func (w *mdWriter) htmlInlines(nodes []Node) string {
	var b strings.Builder
	for _, n := range nodes {
		switch n.Object {
		case ObjectText:
			for _, l := range n.Leaves {
				marks := uniqueMarks(l.Marks)
				for _, m := range marks {
					b.WriteString(htmlOpenTag(m))
				}
				b.WriteString(strings.ReplaceAll(escapeHTMLText(l.Text), "\n", "<br>"))
				for i := len(marks) - 1; i >= 0; i-- {
					b.WriteString(htmlCloseTag(marks[i]))
				}
			}
		case ObjectInline:
			switch n.Type {
			case InlineLink:
				b.WriteString(`<a href="` + escapeHTMLAttr(w.target(n, "ref", UseLink)) + `"` + htmlTitleAttr(n) + `>`)
				b.WriteString(w.htmlInlines(n.Nodes))
				b.WriteString("</a>")
			case InlineImage:
				b.WriteString(w.htmlInlineImage(n))
			case InlineEmoji:
				b.WriteString(EmojiFromCode(dataString(n, "code")))
			case InlineMath:
				b.WriteString(escapeHTMLText("$$" + dataString(n, "formula") + "$$"))
			case InlineAnnotation:
				b.WriteString(w.htmlInlines(n.Nodes))
			case InlineRaw:
				b.WriteString(dataString(n, "markdown"))
			default:
				b.WriteString(w.htmlInline(n))
			}
		}
	}
	return b.String()
}

func htmlOpenTag(m Mark) string {
	switch m.Type {
	case MarkBold:
		return "<strong>"
	case MarkItalic:
		return "<em>"
	case MarkCode:
		return "<code>"
	case MarkKeyboard:
		return "<kbd>"
	case MarkStrikethrough:
		return "<s>"
	case MarkSuperscript:
		return "<sup>"
	case MarkSubscript:
		return "<sub>"
	case MarkColor:
		return colorOpenTag(m)
	}
	return ""
}

func htmlCloseTag(m Mark) string {
	open := htmlOpenTag(m)
	if open == "" {
		return ""
	}
	name := strings.TrimPrefix(open, "<")
	if i := strings.IndexAny(name, " >"); i >= 0 {
		name = name[:i]
	}
	return "</" + name + ">"
}

// htmlInline renders the inlines GitBook writes as HTML: mentions,
// buttons, icons and expressions.
func (w *mdWriter) htmlInline(n Node) string {
	switch n.Type {
	case InlineMention:
		t := w.target(n, "ref", UseMention)
		return `<a href="` + escapeHTMLAttr(t) + `" data-mention>` + escapeHTMLText(t) + "</a>"
	case InlineButton:
		kind := dataString(n, "kind")
		if kind == "" {
			kind = "primary"
		}
		s := `<a href="` + escapeHTMLAttr(w.target(n, "ref", UseLink)) + `" class="button ` + escapeHTMLAttr(kind) + `"`
		if icon := dataString(n, "icon"); icon != "" {
			s += ` data-icon="` + escapeHTMLAttr(icon) + `"`
		}
		return s + ">" + escapeHTMLText(dataString(n, "label")) + "</a>"
	case InlineIcon:
		icon := dataString(n, "icon")
		return `<i class="fa-` + escapeHTMLAttr(icon) + `">:` + escapeHTMLText(icon) + ":</i>"
	case InlineExpression:
		return `<code class="expression">` + escapeHTMLText(dataString(n, "expression")) + "</code>"
	case InlineImage:
		return w.htmlInlineImage(n)
	}
	var b strings.Builder
	writePlainInlines(&b, n.Nodes)
	return escapeHTMLText(b.String())
}

func (w *mdWriter) htmlInlineImage(n Node) string {
	s := `<img src="` + escapeHTMLAttr(w.target(n, "ref", UseImage)) + `" alt="` + escapeHTMLAttr(dataString(n, "alt")) + `"`
	if size := dataString(n, "size"); size != "" {
		s += ` data-size="` + escapeHTMLAttr(size) + `"`
	}
	return s + htmlTitleAttr(n) + ">"
}

// htmlTitleAttr writes a link or image title as an HTML attribute.
func htmlTitleAttr(n Node) string {
	if t := dataString(n, "title"); t != "" {
		return ` title="` + escapeHTMLAttr(t) + `"`
	}
	return ""
}
