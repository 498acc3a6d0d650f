package document

import "strings"

// rawHTML handles inline HTML: formatting tags become marks, and links,
// buttons, mentions, icons, expressions and emoji spans become inlines.
// Unknown tags are dropped and their text kept.
func (ic *inlineConv) rawHTML(raw string) {
	for _, t := range tokenizeHTML(raw) {
		switch {
		case t.comment:
			ic.addRaw(t.src)
		case !t.isTag():
			ic.addText(t.text)
		case !isModelledInlineTag(t.name):
			ic.addRaw(t.src)
		case t.closing:
			if !ic.closeElement(t.name) && t.name == "span" {
				ic.addRaw(t.src)
			}
		default:
			ic.openTag(t)
		}
	}
}

// markdownHTML handles an inline HTML tag of Markdown text. A line break,
// an emoji span (which GitBook writes only inside HTML) and an <img> the
// export would write otherwise are kept as written there (the span's
// text stays text), so that the text is written back the same; other
// tags go to rawHTML.
func (ic *inlineConv) markdownHTML(raw string) {
	toks := tokenizeHTML(raw)
	if len(toks) == 1 && toks[0].isTag() && !toks[0].closing {
		switch t := toks[0]; {
		case t.name == "br", t.name == "span" && t.attrOr("data-tag") == "emoji":
			ic.addRaw(raw)
			return
		case t.name == "img":
			// GitBook's inline image is converted; an author's <img>
			// (other attributes, another order) is kept as written.
			n := ic.c.inlineImage(t)
			if dataString(n, "size") != "" && ic.c.imageWritesBack(n, raw) {
				ic.addInline(n)
			} else {
				ic.addRaw(raw)
			}
			return
		}
	}
	ic.rawHTML(raw)
}

// imageWritesBack reports whether an inline image converted from an <img>
// tag is written back as the same tag.
func (c *converter) imageWritesBack(n Node, raw string) bool {
	o := &options{headingOffset: c.opts.headingOffset, resolver: readTargets(c.opts.targets), ctx: c.opts.ctx}
	w := &mdWriter{opts: o, state: newConvState(o)}
	return w.htmlInlineImage(n) == raw
}

// addRaw keeps inline HTML that has no model, a comment or an unknown
// tag, as written.
func (ic *inlineConv) addRaw(src string) {
	ic.addInline(Inline(InlineRaw, map[string]any{"markdown": src}))
}

// isModelledInlineTag reports whether inline HTML tags of the given name
// become marks or inlines; others are kept verbatim.
func isModelledInlineTag(name string) bool {
	switch name {
	case "br", "img", "a", "code", "i", "span", "strong", "b", "em", "s", "del", "strike",
		"kbd", "sup", "sub", "mark":
		return true
	}
	return false
}

func (ic *inlineConv) openTag(t htmlToken) {
	class := t.attrOr("class")
	switch t.name {
	case "br":
		ic.addText("\n")
		return
	case "img":
		ic.addInline(ic.c.inlineImage(t))
		return
	case "a":
		ic.openAnchor(t)
		return
	case "code":
		if strings.Contains(class, "expression") {
			ic.pushFrame(t, "expression", Ref{})
			return
		}
	case "i":
		if strings.Contains(class, "fa-") {
			ic.pushFrame(t, "icon", Ref{})
			return
		}
	case "span":
		if t.attrOr("data-tag") == "emoji" {
			ic.pushFrame(t, "emoji", Ref{})
			return
		}
		// Other spans are not modelled: their tags are kept.
		ic.addRaw(t.src)
		return
	}
	if m, ok := tagMark(t); ok {
		ic.marks = append(ic.marks, m)
		ic.open = append(ic.open, openElement{name: t.name, mark: m.Type})
	}
}

// tagMark returns the mark an HTML formatting tag stands for.
func tagMark(t htmlToken) (Mark, bool) {
	switch t.name {
	case "strong", "b":
		return Mark{Type: MarkBold}, true
	case "em", "i":
		return Mark{Type: MarkItalic}, true
	case "s", "del", "strike":
		return Mark{Type: MarkStrikethrough}, true
	case "code":
		return Mark{Type: MarkCode}, true
	case "kbd":
		return Mark{Type: MarkKeyboard}, true
	case "sup":
		return Mark{Type: MarkSuperscript}, true
	case "sub":
		return Mark{Type: MarkSubscript}, true
	case "mark":
		text, bg := parseMarkStyle(t.attrOr("style"))
		return Mark{Type: MarkColor, Data: map[string]any{"text": text, "background": bg}}, true
	}
	return Mark{}, false
}

// parseMarkStyle reads "color:…;background-color:…;" into schema colors.
func parseMarkStyle(style string) (text, background string) {
	text, background = "default", "default"
	for _, decl := range strings.Split(style, ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if !isColor(v) {
			continue
		}
		switch strings.TrimSpace(strings.ToLower(k)) {
		case "color":
			text = v
		case "background-color":
			background = v
		}
	}
	return text, background
}

func (ic *inlineConv) openAnchor(t htmlToken) {
	href := t.attrOr("href")
	class := t.attrOr("class")
	_, mention := t.attr("data-mention")
	id, hasID := t.attr("id")
	switch {
	case mention:
		ic.pushFrame(t, "mention", ic.c.opts.refForTarget(href, UseMention))
	case strings.Contains(" "+class+" ", " button "):
		ic.pushFrame(t, "button", ic.c.opts.refForTarget(href, UseLink))
	case hasID && href == "#"+id:
		ic.pushFrame(t, "anchor", Ref{})
	default:
		ic.pushFrame(t, "link", ic.c.opts.refForTarget(href, UseLink))
		ic.top().title = t.attrOr("title")
	}
}

func (ic *inlineConv) pushFrame(t htmlToken, kind string, ref Ref) {
	f := &inlineFrame{kind: kind, tag: t, ref: ref}
	ic.enter(f)
	ic.open = append(ic.open, openElement{name: t.name, frame: f})
}

// closeElement handles </name>: it ends the innermost open element of
// that name, closing frames opened inside it too, and reports whether
// there was one.
func (ic *inlineConv) closeElement(name string) bool {
	for i := len(ic.open) - 1; i >= 0; i-- {
		e := ic.open[i]
		if e.name != name {
			continue
		}
		ic.open = ic.open[:i]
		if e.frame == nil {
			ic.removeMark(e.mark)
			return true
		}
		for len(ic.frames) > 1 {
			if ic.closeFrame() == e.frame {
				break
			}
		}
		return true
	}
	return false
}

// closeFrame ends the innermost frame and adds its node to the parent.
func (ic *inlineConv) closeFrame() *inlineFrame {
	ic.flush()
	f := ic.top()
	ic.frames = ic.frames[:len(ic.frames)-1]
	var text strings.Builder
	writePlainInlines(&text, f.nodes)
	switch f.kind {
	case "link":
		data := map[string]any{"ref": f.ref}
		if f.title != "" {
			data["title"] = f.title
		}
		ic.addInline(Inline(InlineLink, data, flattenLinks(f.nodes)...))
	case "mention":
		ic.addInline(Inline(InlineMention, map[string]any{"ref": f.ref}))
	case "button":
		kind := "primary"
		if strings.Contains(f.tag.attrOr("class"), "secondary") {
			kind = "secondary"
		}
		data := map[string]any{"label": text.String(), "kind": kind, "ref": f.ref}
		if icon := f.tag.attrOr("data-icon"); icon != "" {
			data["icon"] = icon
		}
		ic.addInline(Inline(InlineButton, data))
	case "icon":
		icon := ""
		for _, c := range strings.Fields(f.tag.attrOr("class")) {
			if strings.HasPrefix(c, "fa-") {
				icon = strings.TrimPrefix(c, "fa-")
			}
		}
		ic.addInline(Inline(InlineIcon, map[string]any{"icon": icon}))
	case "expression":
		ic.addInline(Inline(InlineExpression, map[string]any{"expression": text.String()}))
	case "emoji":
		code := f.tag.attrOr("data-code")
		if EmojiFromCode(code) == "" {
			code = EmojiCode(text.String())
		}
		ic.addInline(Inline(InlineEmoji, map[string]any{"code": code}))
	case "anchor":
		if len(f.nodes) == 0 {
			ic.anchor = f.tag.attrOr("id")
			break
		}
		ic.addInline(Inline(InlineLink, map[string]any{"ref": Ref{Kind: RefAnchor, Anchor: f.tag.attrOr("id")}},
			flattenLinks(f.nodes)...))
	}
	return f
}

// flattenLinks replaces links nested in a link by their content.
func flattenLinks(nodes []Node) []Node {
	var out []Node
	for _, n := range nodes {
		if n.Object == ObjectInline && !n.IsVoid() {
			out = append(out, flattenLinks(n.Nodes)...)
			continue
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		out = []Node{Text(Leaf{Text: ""})}
	}
	return out
}

// inlineImage converts an <img> tag to an inline image.
func (c *converter) inlineImage(t htmlToken) Node {
	data := map[string]any{"ref": c.opts.refForTarget(t.attrOr("src"), UseImage)}
	if alt := t.attrOr("alt"); alt != "" {
		data["alt"] = alt
	}
	if size := t.attrOr("data-size"); size == "line" || size == "original" {
		data["size"] = size
	}
	if title := t.attrOr("title"); title != "" {
		data["title"] = title
	}
	return Inline(InlineImage, data)
}
