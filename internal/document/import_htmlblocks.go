package document

import (
	"strconv"
	"strings"
)

// htmlForms converts the HTML blocks GitBook writes for tables, code,
// aligned text and centred images, one block per element; it reports
// false when any part of src is other HTML, which is then kept verbatim.
func (c *converter) htmlForms(src string) ([]Node, bool) {
	t := parseHTMLTree(src)
	if !c.state.spend(len(t.toks), "HTML") {
		return nil, true
	}
	var roots []*htmlElem
	for _, e := range t.roots {
		if e.isBlank() {
			continue
		}
		if !e.tok.isTag() || !e.closed || !isHTMLForm(e) {
			return nil, false
		}
		roots = append(roots, e)
	}
	if len(roots) == 0 {
		return nil, false
	}
	var out []Node
	for _, e := range roots {
		switch e.name() {
		case "table":
			out = append(out, c.htmlTable(t, e, 1))
		case "pre":
			out = append(out, c.htmlCode(t, e))
		default:
			out = append(out, c.htmlElemBlocks(t, e, 0)...)
		}
	}
	return out, true
}

// isHTMLForm reports whether a top-level HTML element is one of the forms
// htmlForms converts.
func isHTMLForm(e *htmlElem) bool {
	switch e.name() {
	case "table", "pre":
		return true
	case "center":
		return onlyImages(e)
	case "p", "h1", "h2", "h3", "h4", "h5", "h6":
		return onlyImages(e) || !hasBlockElems(e)
	}
	return false
}

// hasBlockElems reports whether e holds block-level elements.
func hasBlockElems(e *htmlElem) bool {
	for _, k := range e.elems() {
		if isHTMLBlockElem(k.name()) || hasBlockElems(k) {
			return true
		}
	}
	return false
}

// alignData maps an HTML align attribute to the schema's text alignment.
func alignData(data map[string]any, e *htmlElem) map[string]any {
	var a string
	switch e.tok.attrOr("align") {
	case "left":
		a = "start"
	case "center":
		a = "center"
	case "right":
		a = "end"
	default:
		return data
	}
	if data == nil {
		data = map[string]any{}
	}
	data["align"] = a
	return data
}

// onlyImages reports whether e holds images and nothing else but white
// space and line breaks.
func onlyImages(e *htmlElem) bool {
	n := 0
	for _, k := range e.kids {
		switch {
		case k.isBlank(), k.name() == "br":
		case k.name() == "img":
			n++
		default:
			return false
		}
	}
	return n > 0
}

// htmlImages converts <p> or <center> around images to an images block,
// the alignment taken from the wrapper.
func (c *converter) htmlImages(t *htmlTree, e *htmlElem) []Node {
	images := Block(TypeImages, map[string]any{})
	switch a := e.tok.attrOr("align"); {
	case e.name() == "center":
		images.Data["align"] = "center"
	case a == "left" || a == "right" || a == "center":
		images.Data["align"] = a
	}
	for _, k := range e.kids {
		if k.name() == "img" {
			images.Nodes = append(images.Nodes, c.figureImage(k.tok, ""))
		}
	}
	return []Node{images}
}

// isHTMLBlockElem reports whether elements of the named tag are blocks
// in table cells and list items; other content is inline.
func isHTMLBlockElem(name string) bool {
	switch name {
	case "p", "div", "center", "figure", "picture", "ul", "ol", "pre", "table", "h1", "h2", "h3",
		"h4", "h5", "h6", "blockquote", "hr", "details", "section", "dl":
		return true
	}
	return false
}

// htmlBlocks converts HTML content (a table cell, a list item) to blocks:
// runs of inline content become paragraphs, and block elements their
// blocks. depth counts the levels of HTML lists and tables around it; it
// is 0 only for the elements of a top-level HTML block.
func (c *converter) htmlBlocks(t *htmlTree, elems []*htmlElem, depth int) []Node {
	var out []Node
	var run strings.Builder
	flush := func() {
		if strings.TrimSpace(run.String()) != "" {
			if nodes := trimEdges(c.htmlInlines(run.String())); len(nodes) > 0 {
				out = append(out, Block(TypeParagraph, nil, nodes...))
			}
		}
		run.Reset()
	}
	for _, e := range elems {
		switch {
		case e.tok.comment && run.Len() == 0:
			out = append(out, rawBlock(e.tok.src))
		case e.tok.isTag() && isHTMLBlockElem(e.name()):
			flush()
			out = append(out, c.htmlElemBlocks(t, e, depth)...)
		default:
			run.WriteString(t.outer(e))
		}
	}
	flush()
	return out
}

// htmlElemBlocks converts one block-level HTML element.
func (c *converter) htmlElemBlocks(t *htmlTree, e *htmlElem, depth int) []Node {
	if depth > maxNesting {
		return []Node{rawBlock(t.outer(e))}
	}
	switch name := e.name(); name {
	case "p":
		// Images alone in a top-level or aligned <p> are an image block;
		// in a cell, <p><img></p> is a paragraph holding an inline image.
		if onlyImages(e) && (e.tok.attrOr("align") != "" || depth == 0) {
			return c.htmlImages(t, e)
		}
		nodes := trimEdges(c.htmlInlines(t.inner(e)))
		return []Node{Block(TypeParagraph, alignData(nil, e), nodes...)}
	case "center":
		if onlyImages(e) {
			return c.htmlImages(t, e)
		}
	case "figure", "picture", "div":
		return c.media(t.outer(e))
	case "ul", "ol":
		return []Node{c.htmlList(t, e, depth)}
	case "pre":
		return []Node{c.htmlCode(t, e)}
	case "table":
		return []Node{c.htmlTable(t, e, depth+1)}
	case "h1", "h2", "h3", "h4", "h5", "h6":
		level := int(name[1]-'0') - c.opts.headingOffset
		ic := c.newInlineConv()
		ic.rawHTML(t.inner(e))
		h := Block(headingType(level), alignData(map[string]any{}, e), trimEdges(ic.finish())...)
		if ic.anchor != "" {
			h.Data["id"] = ic.anchor
		}
		return []Node{h}
	case "blockquote":
		return []Node{Block(TypeBlockquote, nil, c.orEmpty(c.htmlBlocks(t, e.kids, depth+1))...)}
	case "hr":
		return []Node{Block(TypeDivider, nil)}
	}
	return []Node{rawBlock(t.outer(e))}
}

// htmlList converts <ul> and <ol>; each <li> holds blocks.
func (c *converter) htmlList(t *htmlTree, e *htmlElem, depth int) Node {
	typ := TypeListUnordered
	var data map[string]any
	if e.name() == "ol" {
		typ = TypeListOrdered
		data = map[string]any{}
		if s, err := strconv.Atoi(e.tok.attrOr("start")); err == nil && s != 1 && s >= 0 {
			data["start"] = s
		}
	}
	list := Block(typ, data)
	for _, li := range e.elems() {
		if li.name() != "li" {
			continue
		}
		list.Nodes = append(list.Nodes, Block(TypeListItem, nil, c.orEmpty(c.htmlBlocks(t, li.kids, depth+1))...))
	}
	if len(list.Nodes) == 0 {
		list.Nodes = []Node{Block(TypeListItem, nil, Block(TypeParagraph, nil))}
	}
	return list
}

// htmlCode converts <pre><code> to a code block. The options are data
// attributes of <pre> (data-title, data-line-numbers, data-overflow,
// data-full-width, data-expandable), the syntax its "language-" class.
// <strong> (or <b>, or a <mark> without a style) marks highlighted lines,
// as GitBook writes them; other formatting tags become marks.
func (c *converter) htmlCode(t *htmlTree, pre *htmlElem) Node {
	data := map[string]any{}
	syntax := classSuffix(pre.tok.attrOr("class"), "language-")
	code := pre.find("code")
	if syntax == "" && code != nil {
		syntax = classSuffix(code.tok.attrOr("class"), "lang-")
	}
	if syntax != "" {
		data["syntax"] = syntax
	}
	if title := pre.tok.attrOr("data-title"); title != "" {
		data["title"] = title
	}
	if v := pre.tok.attrOr("data-overflow"); v == "wrap" || v == "scroll" {
		data["overflow"] = v
	}
	for _, a := range []struct{ attr, key string }{
		{"data-line-numbers", "lineNumbers"}, {"data-full-width", "fullWidth"}, {"data-expandable", "expandable"},
	} {
		if v, ok := pre.tok.attr(a.attr); ok {
			data[a.key] = v != "false"
		}
	}
	block := Block(TypeCode, data)
	var leaves []Leaf
	var marks []Mark
	// highlight counts the open highlight tags; a line is highlighted
	// when text or its line end is inside one, or one opens on it.
	highlight, lineHighlighted := 0, false
	endLine := func() {
		line := Block(TypeCodeLine, map[string]any{}, Text(leaves...))
		if len(leaves) == 0 {
			line.Nodes = []Node{Text(Leaf{})}
		}
		if lineHighlighted || highlight > 0 {
			line.Data["highlighted"] = true
		}
		block.Nodes = append(block.Nodes, line)
		leaves = nil
		lineHighlighted = false
	}
	addText := func(s string) {
		for i, part := range strings.Split(s, "\n") {
			if i > 0 {
				endLine()
			}
			if part == "" {
				continue
			}
			if highlight > 0 {
				lineHighlighted = true
			}
			m := append([]Mark(nil), marks...)
			if k := len(leaves) - 1; k >= 0 && sameMarks(leaves[k].Marks, m) {
				leaves[k].Text += part
				continue
			}
			leaves = append(leaves, Leaf{Text: part, Marks: m})
		}
	}
	end := pre.last
	if !pre.closed {
		end++
	}
	for i := pre.first + 1; i < end; i++ {
		tok := t.toks[i]
		switch {
		case tok.comment:
		case !tok.isTag():
			addText(tok.text)
		case tok.name == "code":
		case tok.name == "br":
			addText("\n")
		case isHighlightTag(tok):
			if tok.closing {
				highlight = max(0, highlight-1)
			} else {
				highlight++
			}
		case tok.closing:
			if m, ok := tagMark(tok); ok {
				for j := len(marks) - 1; j >= 0; j-- {
					if marks[j].Type == m.Type {
						marks = append(marks[:j], marks[j+1:]...)
						break
					}
				}
			}
		default:
			if m, ok := tagMark(tok); ok && m.Type != MarkCode {
				marks = append(marks, m)
			}
		}
	}
	// The text ends with a line end, as GitBook writes it: it ends the
	// last line rather than starting an empty one.
	if len(leaves) > 0 || len(block.Nodes) == 0 {
		endLine()
	}
	return block
}

// classSuffix returns what follows prefix in the first class of a class
// attribute that starts with it.
func classSuffix(class, prefix string) string {
	for _, c := range strings.Fields(class) {
		if strings.HasPrefix(c, prefix) {
			return c[len(prefix):]
		}
	}
	return ""
}

// isHighlightTag reports whether a tag inside <pre> marks highlighted
// lines.
func isHighlightTag(t htmlToken) bool {
	return t.name == "strong" || t.name == "b" || t.name == "mark" && t.attrOr("style") == ""
}
