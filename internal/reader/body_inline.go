package reader

import (
	"strconv"
	"strings"
	"unicode"

	"quire/internal/document"
)

func isLetter(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// plainText returns the text of nodes without markup.
func plainText(nodes []document.Node) string {
	var b strings.Builder
	writePlain(&b, nodes)
	return b.String()
}

func writePlain(b *strings.Builder, nodes []document.Node) {
	for i := range nodes {
		n := &nodes[i]
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
		switch n.Type {
		case document.InlineEmoji:
			b.WriteString(document.EmojiFromCode(dataString(n, "code")))
		case document.InlineMath:
			b.WriteString(dataString(n, "formula"))
		case document.InlineButton:
			b.WriteString(dataString(n, "label"))
		}
		writePlain(b, n.Nodes)
		if n.Object == document.ObjectBlock && len(n.Nodes) > 0 && n.Nodes[0].Object == document.ObjectBlock {
			b.WriteByte(' ')
		}
	}
}

// plainInlines writes the text of inline nodes, escaped, without marks.
func (w *bodyWriter) plainInlines(nodes []document.Node) {
	w.text(plainText(nodes))
}

// markTag returns the opening and closing tags of a mark.
func markTag(m document.Mark) (string, string) {
	switch m.Type {
	case document.MarkBold:
		return "<strong>", "</strong>"
	case document.MarkItalic:
		return "<em>", "</em>"
	case document.MarkCode:
		return "<code>", "</code>"
	case document.MarkKeyboard:
		return "<kbd>", "</kbd>"
	case document.MarkStrikethrough:
		return "<s>", "</s>"
	case document.MarkSuperscript:
		return "<sup>", "</sup>"
	case document.MarkSubscript:
		return "<sub>", "</sub>"
	case document.MarkColor:
		class := "color"
		if c, _ := m.Data["text"].(string); colorName(c) {
			class += " text-" + c
		}
		if c, _ := m.Data["background"].(string); colorName(c) {
			class += " bg-" + c
		}
		return `<span class="` + class + `">`, "</span>"
	}
	return "", ""
}

// colorName reports whether c is one of the named colors of the color
// mark.
func colorName(c string) bool {
	switch c {
	case "default", "red", "orange", "yellow", "green", "blue", "purple", "pink", "gray", "grey":
		return true
	}
	return false
}

// inlines writes inline content: text leaves with their marks, links,
// mentions, images, math, footnote references.
//
// Inline HTML is kept in pieces (an opening tag, the text, the closing
// tag); content holding any is gathered with the pieces in place and
// filtered as one piece of HTML, so that tags pair up.
func (w *bodyWriter) inlines(nodes []document.Node) {
	if w.inHTML == 0 && w.policy != nil && hasRawHTML(nodes) {
		s, _ := w.inlineHTML(nodes)
		w.raw(s)
		return
	}
	for i := range nodes {
		n := &nodes[i]
		switch n.Object {
		case document.ObjectText:
			for _, l := range n.Leaves {
				w.leaf(l)
			}
		case document.ObjectInline:
			w.inline(n)
		case document.ObjectBlock:
			w.block(n)
		}
	}
}

func (w *bodyWriter) leaf(l document.Leaf) {
	closers := make([]string, 0, len(l.Marks))
	for _, m := range l.Marks {
		open, closer := markTag(m)
		if open == "" {
			continue
		}
		w.raw(open)
		closers = append(closers, closer)
	}
	text := l.Text
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		w.text(text[:i])
		w.raw("<br>")
		text = text[i+1:]
	}
	w.text(text)
	for i := len(closers) - 1; i >= 0; i-- {
		w.raw(closers[i])
	}
}

func (w *bodyWriter) inline(n *document.Node) {
	switch n.Type {
	case document.InlineLink:
		ref, _ := document.RefOf(n.Data["ref"])
		w.anchor(w.res.link(ref).URL, "", dataString(n, "title"), func() { w.inlines(n.Nodes) })
	case document.InlineMention:
		ref, _ := document.RefOf(n.Data["ref"])
		t := w.res.link(ref)
		w.anchor(t.URL, "mention", "", func() {
			if s := plainText(n.Nodes); strings.TrimSpace(s) != "" {
				w.inlines(n.Nodes)
			} else {
				w.text(firstNonEmpty(t.Title, urlLabel(t.URL)))
			}
		})
	case document.InlineButton:
		ref, _ := document.RefOf(n.Data["ref"])
		class := "button"
		if dataString(n, "kind") == "secondary" {
			class += " button-secondary"
		}
		w.anchor(w.res.link(ref).URL, class, "", func() { w.text(dataString(n, "label")) })
	case document.InlineImage:
		ref, _ := document.RefOf(n.Data["ref"])
		if src := SafeURL(w.res.image(ref)); src != "" {
			w.raw(`<img class="inline-image" loading="lazy"`)
			w.attr("src", src)
			w.attr("alt", dataString(n, "alt"))
			w.raw(">")
		}
	case document.InlineEmoji:
		w.text(document.EmojiFromCode(dataString(n, "code")))
	case document.InlineIcon:
		// Icons come from an icon font the reader does not ship: those a
		// character draws are that character, the others nothing.
		name := dataString(n, "icon")
		if g := iconGlyph(name); g != "" {
			w.raw(`<span class="icon" role="img"`)
			w.attr("aria-label", strings.TrimPrefix(name, "fa-"))
			w.raw(">" + g + "</span>")
		}
	case document.InlineExpression:
		w.raw(`<code class="expression">`)
		w.text(dataString(n, "expression"))
		w.raw("</code>")
	case document.InlineMath:
		w.math(dataString(n, "formula"), false)
	case document.InlineAnnotation:
		w.annotation(n)
	case document.InlineRaw:
		w.rawInline(dataString(n, "markdown"))
	default:
		w.inlines(n.Nodes)
	}
}

// urlLabel names a page by its address when nothing else names it: the
// last segment without ".md".
func urlLabel(u string) string {
	s := strings.TrimSuffix(u, "/")
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s[strings.LastIndexByte(s, '/')+1:], ".md")
	return firstNonEmpty(s, u)
}

// anchor writes a link around body, or body alone when the address is
// missing or unsafe.
func (w *bodyWriter) anchor(u, class, title string, body func()) {
	u = SafeURL(u)
	if u == "" {
		body()
		return
	}
	w.raw("<a")
	w.attr("href", u)
	if class != "" {
		w.attr("class", class)
	}
	if title != "" {
		w.attr("title", title)
	}
	if document.HasScheme(u) && !strings.HasPrefix(u, "mailto:") && !strings.HasPrefix(u, "tel:") {
		w.raw(` rel="noopener"`)
	}
	w.raw(">")
	body()
	w.raw("</a>")
}

// annotation writes annotated text with a numbered footnote reference;
// the notes are written after the body.
func (w *bodyWriter) annotation(n *document.Node) {
	w.notes = append(w.notes, fragment(n, "annotation-body"))
	num := strconv.Itoa(len(w.notes))
	w.raw(`<span class="annotated">`)
	w.inlines(n.Nodes)
	w.raw(`</span><sup class="footnote-ref"><a href="#` + w.idPrefix + `fn-` + num + `" id="` + w.idPrefix + `fnref-` + num + `" aria-label="Note ` + num + `">` + num + "</a></sup>")
}

// footnotes writes the notes referenced so far.
func (w *bodyWriter) footnotes() {
	if len(w.notes) == 0 {
		return
	}
	w.nested++
	defer func() { w.nested-- }()
	w.raw(`<section class="footnotes" aria-label="Notes"><ol>`)
	for i := 0; i < len(w.notes); i++ {
		num := strconv.Itoa(i + 1)
		w.raw(`<li id="` + w.idPrefix + `fn-` + num + `">`)
		w.blocks(w.notes[i])
		w.raw(` <a href="#` + w.idPrefix + `fnref-` + num + `" aria-label="Back to the text">↩</a></li>`)
	}
	w.raw("</ol></section>\n")
}
