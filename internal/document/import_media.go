package document

import "strings"

// media converts an HTML image construct: figures (optionally wrapped in
// a <div> carrying the images block's alignment, width and frame), dark
// mode <picture>s, drawings, and lone <img> tags (inline images).
func (c *converter) media(raw string) []Node {
	if strings.HasPrefix(strings.TrimSpace(raw), "<picture") {
		// GitBook writes a dark mode image inside a <figure>; a <picture>
		// of its own is an author's HTML, kept as written.
		return c.mediaFallback(raw)
	}
	toks := tokenizeHTML(raw)
	images := Block(TypeImages, map[string]any{})
	var img *Node
	var drawing *Node
	inCaption := false
	var caption strings.Builder
	darkSrc := ""
	for _, t := range toks {
		if inCaption {
			if t.name == "figcaption" && t.closing {
				inCaption = false
				c.setCaption(img, caption.String())
				continue
			}
			caption.WriteString(rawToken(t))
			continue
		}
		switch {
		case !t.isTag():
			if strings.TrimSpace(t.text) != "" {
				return c.mediaFallback(raw)
			}
		case t.closing:
			if t.name == "picture" {
				darkSrc = ""
			}
		case t.name == "div":
			applyWrapper(images.Data, t)
		case t.name == "source":
			if strings.Contains(t.attrOr("media"), "dark") {
				darkSrc = t.attrOr("srcset")
			}
		case t.name == "img":
			if strings.Contains(t.attrOr("class"), "gitbook-drawing") {
				d := Block(TypeDrawing, map[string]any{"ref": c.opts.refForTarget(t.attrOr("src"), UseFile)})
				drawing = &d
				continue
			}
			images.Nodes = append(images.Nodes, c.figureImage(t, darkSrc))
			img = &images.Nodes[len(images.Nodes)-1]
		case t.name == "figcaption":
			inCaption = true
			caption.Reset()
		}
	}
	switch {
	case drawing != nil && len(images.Nodes) == 0:
		return []Node{*drawing}
	case len(images.Nodes) == 0:
		return c.mediaFallback(raw)
	case !strings.Contains(raw, "<figure") && !strings.Contains(raw, "<picture") && len(images.Nodes) == 1 && len(images.Data) == 0:
		// A lone <img> line is an inline image in its own paragraph.
		n := images.Nodes[0]
		return []Node{Block(TypeParagraph, nil, c.inlineImageFromBlock(n, raw))}
	}
	if len(images.Data) == 0 {
		images.Data = nil
	}
	return []Node{images}
}

// rawToken writes a token back as HTML, for caption content that is
// parsed again as Markdown with inline HTML.
func rawToken(t htmlToken) string {
	if !t.isTag() {
		return escapeHTMLText(t.text)
	}
	var b strings.Builder
	b.WriteByte('<')
	if t.closing {
		b.WriteByte('/')
	}
	b.WriteString(t.name)
	for i := 0; i+1 < len(t.attrs); i += 2 {
		b.WriteString(" " + t.attrs[i] + `="` + escapeHTMLAttr(t.attrs[i+1]) + `"`)
	}
	b.WriteByte('>')
	return b.String()
}

func applyWrapper(data map[string]any, t htmlToken) {
	switch t.attrOr("align") {
	case "left", "right", "center":
		data["align"] = t.attrOr("align")
	}
	if v, ok := t.attr("data-full-width"); ok {
		data["fullWidth"] = v != "false"
	}
	if v, ok := t.attr("data-with-frame"); ok {
		data["withFrame"] = v != "false"
	}
}

func (c *converter) figureImage(t htmlToken, darkSrc string) Node {
	data := map[string]any{"ref": c.opts.refForTarget(t.attrOr("src"), UseImage)}
	if darkSrc != "" {
		data["refDark"] = c.opts.refForTarget(darkSrc, UseImage)
	}
	if alt := t.attrOr("alt"); alt != "" {
		data["alt"] = alt
	}
	if title := t.attrOr("title"); title != "" {
		data["title"] = title
	}
	for _, k := range []string{"width", "height"} {
		if v, ok := t.attr(k); ok {
			if l, ok := parseLength(v); ok {
				data[k] = l
			}
		}
	}
	return Node{Object: ObjectBlock, Type: TypeImage, Data: data}
}

// htmlInlines converts inline HTML (a caption or a summary) to inlines.
func (c *converter) htmlInlines(raw string) []Node {
	ic := c.newInlineConv()
	ic.rawHTML(raw)
	return ic.finish()
}

// setCaption converts a figcaption's inline HTML to a caption fragment.
func (c *converter) setCaption(img *Node, raw string) {
	if img == nil {
		return
	}
	raw = strings.TrimSpace(raw)
	raw = strings.TrimPrefix(raw, "<p>")
	raw = strings.TrimSuffix(raw, "</p>")
	nodes := c.htmlInlines(raw)
	if len(nodes) == 0 {
		return
	}
	img.Fragments = []Node{{Object: ObjectFragment, Fragment: "caption",
		Nodes: []Node{Block(TypeParagraph, nil, nodes...)}}}
}

func (c *converter) inlineImageFromBlock(n Node, raw string) Node {
	data := map[string]any{"ref": n.Data["ref"]}
	for _, k := range []string{"alt", "title"} {
		if v, ok := n.Data[k]; ok {
			data[k] = v
		}
	}
	toks := tokenizeHTML(raw)
	for _, t := range toks {
		if t.name == "img" {
			if size := t.attrOr("data-size"); size == "line" || size == "original" {
				data["size"] = size
			}
		}
	}
	return Inline(InlineImage, data)
}

// mediaFallback keeps HTML that turned out not to be an image block
// verbatim.
func (c *converter) mediaFallback(raw string) []Node {
	return []Node{rawBlock(strings.TrimRight(raw, "\r\n"))}
}
