package document

import "strings"

// codeNeedsHTML reports whether a code block has highlighted lines or
// formatted text, which only GitBook's <pre><code> form carries.
func codeNeedsHTML(n Node) bool {
	for _, line := range n.Nodes {
		if h, _ := line.Data["highlighted"].(bool); h {
			return true
		}
		for _, t := range line.Nodes {
			for _, l := range t.Leaves {
				for _, m := range l.Marks {
					if m.Type != MarkCode && m.Type != MarkBold {
						return true
					}
				}
			}
		}
	}
	return false
}

// htmlCode writes a code block as <pre><code>: the options as data
// attributes of <pre>, formatted text as HTML tags and each highlighted
// line, its line end included, inside <strong>, as GitBook does. Bold
// has no other form there and is left out. In a table cell (oneLine), line ends are written as
// character references so that the table stays on one line.
func (w *mdWriter) htmlCode(n Node, oneLine bool) string {
	var b strings.Builder
	syntax := dataString(n, "syntax")
	b.WriteString("<pre")
	if syntax != "" {
		b.WriteString(` class="language-` + escapeHTMLAttr(syntax) + `"`)
	}
	if t := dataString(n, "title"); t != "" {
		b.WriteString(` data-title="` + escapeHTMLAttr(t) + `"`)
	}
	if o := dataString(n, "overflow"); o != "" {
		b.WriteString(` data-overflow="` + escapeHTMLAttr(o) + `"`)
	}
	for _, a := range []struct{ attr, key string }{
		{"data-line-numbers", "lineNumbers"}, {"data-full-width", "fullWidth"}, {"data-expandable", "expandable"},
	} {
		if v, ok := n.Data[a.key].(bool); ok {
			if v {
				b.WriteString(" " + a.attr)
			} else {
				b.WriteString(" " + a.attr + `="false"`)
			}
		}
	}
	b.WriteString("><code")
	if syntax != "" {
		b.WriteString(` class="lang-` + escapeHTMLAttr(syntax) + `"`)
	}
	b.WriteString(">")
	nl := "\n"
	if oneLine {
		nl = "&#xa;"
	}
	for _, line := range n.Nodes {
		h, _ := line.Data["highlighted"].(bool)
		if h {
			b.WriteString("<strong>")
		}
		for _, t := range line.Nodes {
			for _, l := range t.Leaves {
				marks := uniqueMarks(l.Marks)
				for _, m := range marks {
					if m.Type != MarkCode && m.Type != MarkBold {
						b.WriteString(htmlOpenTag(m))
					}
				}
				b.WriteString(strings.ReplaceAll(escapeHTMLText(l.Text), "\n", nl))
				for i := len(marks) - 1; i >= 0; i-- {
					if marks[i].Type != MarkCode && marks[i].Type != MarkBold {
						b.WriteString(htmlCloseTag(marks[i]))
					}
				}
			}
		}
		b.WriteString(nl)
		if h {
			b.WriteString("</strong>")
		}
	}
	b.WriteString("</code></pre>")
	return b.String()
}
