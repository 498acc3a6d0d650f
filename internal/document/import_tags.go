package document

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// tag converts a {% tag %} block.
func (c *converter) tag(n *tagBlock) []Node {
	t := n.tag
	if n.verbatim {
		return c.verbatimTag(n)
	}
	body := func() []Node {
		if n.body != "" {
			return c.parse(n.body)
		}
		return c.blocks(n)
	}
	switch t.name {
	case "hint":
		style, _ := t.attr("style")
		switch style {
		case "info", "success", "warning", "danger":
		default:
			style = "info"
		}
		data := map[string]any{"style": style}
		if icon, ok := t.attr("icon"); ok && icon != "" {
			data["icon"] = icon
		}
		return []Node{Block(TypeHint, data, c.orEmpty(body())...)}
	case "tabs":
		return []Node{c.itemContainer(n, TypeTabs, "tab", TypeTabsItem)}
	case "stepper":
		return []Node{c.itemContainer(n, TypeStepper, "step", TypeStepperStep)}
	case "columns":
		return []Node{c.itemContainer(n, TypeColumns, "column", TypeColumn)}
	case "updates":
		return []Node{c.itemContainer(n, TypeUpdates, "update", TypeUpdate)}
	case "code":
		return c.codeTag(n, body())
	case "embed":
		return []Node{c.embed(n, body())}
	case "content-ref", "page-ref":
		target, ok := t.attr("url")
		if !ok {
			target, _ = t.attr("page")
		}
		return []Node{Block(TypeContentRef, map[string]any{"ref": c.opts.refForTarget(target, UseContentRef)})}
	case "file":
		src, _ := t.attr("src")
		data := map[string]any{"ref": c.opts.refForTarget(src, UseFile)}
		if caption := blocksText(body()); caption != "" {
			data["caption"] = caption
		}
		return []Node{Block(TypeFile, data)}
	case "if":
		return []Node{Block(TypeIf, map[string]any{"expression": t.args}, c.orEmpty(body())...)}
	case "include":
		ref := Ref{Kind: RefReusableContent, ReusableContent: t.quoted()}
		return []Node{Block(TypeReusableContent, map[string]any{"ref": ref})}
	}
	// A tag without a model of its own, such as {% else %}, is kept.
	return []Node{rawBlock(n.source())}
}

// rawBlock returns a block keeping Markdown source verbatim.
func rawBlock(src string) Node {
	return Block(TypeRaw, map[string]any{"markdown": src})
}

// itemContainer converts tabs, steppers and columns: their item tags
// become items, and stray content joins the previous item.
func (c *converter) itemContainer(n *tagBlock, typ, itemTag, itemTyp string) Node {
	data := map[string]any(nil)
	if typ == TypeUpdates {
		data = map[string]any{}
		if f, ok := n.tag.attr("format"); ok {
			data["format"] = f
		}
	}
	if typ == TypeColumns || typ == TypeTabs {
		if fw, ok := n.tag.attr("fullWidth"); ok {
			data = map[string]any{"fullWidth": fw == "true"}
		}
		if typ == TypeColumns && data == nil {
			data = map[string]any{}
		}
	}
	out := Block(typ, data)
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if tb, ok := ch.(*tagBlock); ok && tb.tag.name == itemTag {
			out.Nodes = append(out.Nodes, c.item(tb, itemTyp))
			continue
		}
		blocks := c.block(ch)
		if len(blocks) == 0 {
			continue
		}
		if len(out.Nodes) == 0 {
			out.Nodes = append(out.Nodes, Block(itemTyp, map[string]any{}))
		}
		last := &out.Nodes[len(out.Nodes)-1]
		last.Nodes = append(last.Nodes, blocks...)
	}
	return out
}

func (c *converter) item(n *tagBlock, typ string) Node {
	t := n.tag
	data := map[string]any{}
	switch typ {
	case TypeTabsItem:
		if title, ok := t.attr("title"); ok {
			data["title"] = title
		}
		if icon, ok := t.attr("icon"); ok && icon != "" {
			data["icon"] = icon
		}
	case TypeStepperStep:
		if icon, ok := t.attr("icon"); ok && icon != "" {
			data["icon"] = icon
		}
	case TypeUpdate:
		if date, ok := t.attr("date"); ok {
			data["date"] = date
		}
		if tags, ok := t.attr("tags"); ok {
			data["tags"] = splitList(tags)
		}
	case TypeColumn:
		if w, ok := t.attr("width"); ok {
			if l, ok := parseLength(w); ok {
				data["width"] = l
			}
		}
		switch v, _ := t.attr("valign"); v {
		case "top", "middle", "bottom":
			data["verticalAlignment"] = v
		}
	}
	var nodes []Node
	if n.body != "" {
		nodes = c.parse(n.body)
	} else {
		nodes = c.blocks(n)
	}
	return Block(typ, data, c.orEmpty(nodes)...)
}

// parseLength reads "50%", "120px" or "120" into a schema Length.
func parseLength(s string) (any, bool) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-') {
		i++
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return nil, false
	}
	unit := strings.TrimSpace(s[i:])
	if unit == "" {
		return v, true
	}
	return map[string]any{"unit": unit, "value": v}, true
}

// codeTag converts {% code %} around a fenced code block.
func (c *converter) codeTag(n *tagBlock, body []Node) []Node {
	idx := -1
	for i, b := range body {
		if b.Type == TypeCode {
			idx = i
			break
		}
	}
	if idx < 0 {
		return body
	}
	code := &body[idx]
	if code.Data == nil {
		code.Data = map[string]any{}
	}
	t := n.tag
	if title, ok := t.attr("title"); ok && title != "" {
		code.Data["title"] = title
	}
	if v, ok := t.attr("overflow"); ok && (v == "wrap" || v == "scroll") {
		code.Data["overflow"] = v
	}
	for _, k := range []string{"lineNumbers", "fullWidth", "expandable"} {
		if v, ok := t.attr(k); ok {
			code.Data[k] = v == "true"
		}
	}
	return body
}

func (c *converter) embed(n *tagBlock, body []Node) Node {
	url, _ := n.tag.attr("url")
	data := map[string]any{"url": url}
	// The schema stores the address as a string; a resolver may map it
	// to another reference (a page, a file), kept next to it.
	if r := c.opts.refForTarget(url, UseEmbed); r.Kind == RefURL {
		data["url"] = r.URL
	} else {
		data["ref"] = r
	}
	if fw, ok := n.tag.attr("fullWidth"); ok {
		data["fullWidth"] = fw == "true"
	}
	caption := blocksText(body)
	if caption == "" {
		caption, _ = n.tag.attr("caption")
	}
	if caption != "" {
		data["caption"] = caption
	}
	return Block(TypeEmbed, data)
}

// blocksText returns the plain text of blocks, paragraphs separated by
// blank lines.
func blocksText(blocks []Node) string {
	var parts []string
	for _, b := range blocks {
		var sb strings.Builder
		writePlainBlock(&sb, b)
		if s := strings.TrimSpace(sb.String()); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// expandable converts <details> to an expandable block.
func (c *converter) expandable(n *detailsBlock) Node {
	title := Block(TypeParagraph, nil, c.htmlInlines(n.summary)...)
	body := c.orEmpty(c.blocks(n))
	return Node{Object: ObjectBlock, Type: TypeExpandable, Fragments: []Node{
		Fragment("expandable-title", "expandable-title", title),
		Fragment("expandable-body", "expandable-body", body...),
	}}
}

// linesSource returns the source of a block's lines as written, without
// the final line end.
func (c *converter) linesSource(n ast.Node) string {
	var raw strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		raw.Write(seg.Value(c.src))
	}
	return strings.TrimRight(raw.String(), "\r\n")
}

// spanSource returns the source from the first line of a block or its
// descendants to the end of their last one, as written, without the final
// line end.
func (c *converter) spanSource(n ast.Node) string {
	start, stop := -1, -1
	_ = ast.Walk(n, func(d ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || d.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		lines := d.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			if start < 0 || seg.Start < start {
				start = seg.Start
			}
			stop = max(stop, seg.Stop)
		}
		return ast.WalkContinue, nil
	})
	if start < 0 {
		return ""
	}
	// Lines start past their indentation: the source is read from the
	// start of the first line.
	for start > 0 && (c.src[start-1] == ' ' || c.src[start-1] == '\t') {
		start--
	}
	return strings.TrimRight(string(c.src[start:stop]), "\r\n")
}

// htmlBlock converts an HTML block: GitBook's HTML forms (tables, code,
// centred images) become their blocks, and any other HTML, comments
// included, is kept verbatim.
func (c *converter) htmlBlock(n *ast.HTMLBlock) []Node {
	var raw strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		raw.Write(seg.Value(c.src))
	}
	if n.HasClosure() {
		raw.Write(n.ClosureLine.Value(c.src))
	}
	src := strings.TrimRight(raw.String(), "\r\n")
	if nodes, ok := c.htmlForms(src); ok && (!holdsTable(nodes) || c.writesBack(nodes, src)) {
		return nodes
	}
	return []Node{rawBlock(src)}
}

// holdsTable reports whether nodes hold a table at any depth.
func holdsTable(nodes []Node) bool {
	for _, n := range nodes {
		if n.Type == TypeTable || holdsTable(n.Nodes) || holdsTable(n.Fragments) {
			return true
		}
	}
	return false
}

// writesBack reports whether blocks converted from an HTML block are
// written back as the same text. An HTML table in a form the export does
// not write (another order of attributes, <colgroup>, cells without
// <thead>, Markdown in cells, white space between tags) is kept verbatim
// instead, so that an import and export of a repository change nothing.
func (c *converter) writesBack(nodes []Node, src string) bool {
	o := &options{headingOffset: c.opts.headingOffset, resolver: readTargets(c.opts.targets), ctx: c.opts.ctx}
	w := &mdWriter{opts: o, state: newConvState(o)}
	out := w.blocks(nodes)
	return w.state.err == nil && out == src
}

// readTargets writes each reference as the target it was read from.
type readTargets map[Ref]string

// RefForTarget implements LinkResolver; it is not used.
func (readTargets) RefForTarget(string, TargetUse) (Ref, bool) { return Ref{}, false }

// TargetForRef implements LinkResolver.
func (m readTargets) TargetForRef(r Ref, _ TargetUse) (string, bool) {
	t, ok := m[r]
	return t, ok
}

// splitList reads a comma-separated attribute into trimmed strings.
func splitList(s string) []any {
	out := []any{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
