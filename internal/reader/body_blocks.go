package reader

import (
	"path"
	"strconv"
	"strings"

	"quire/internal/document"
)

// headingLevel maps document heading types to HTML levels: the page
// title is the h1, so heading-1 is an h2.
func headingLevel(typ string) int {
	switch typ {
	case document.TypeHeading1:
		return 2
	case document.TypeHeading2:
		return 3
	}
	return 4
}

// heading writes a heading with an anchor to itself. Levels are kept in
// order: the document's highest heading kind is an h2, and a heading
// never goes more than one level below the one before it.
func (w *bodyWriter) heading(n *document.Node) {
	lv := max(2, min(headingLevel(n.Type)-w.shift, w.lastLevel+1))
	w.lastLevel = lv
	level := strconv.Itoa(lv)
	id := w.headingID(n)
	w.noteHeading(n, id, lv-1)
	w.raw("<h" + level)
	w.attr("id", id)
	w.alignClass(n)
	w.raw(">")
	w.inlines(n.Nodes)
	w.raw(`<a class="anchor" aria-hidden="true" tabindex="-1"`)
	w.attr("href", "#"+id)
	w.raw(">#</a></h" + level + ">\n")
}

// headingID returns the heading's anchor: its stored id, or one made from
// its text, unique within the page.
// shiftHeadings sets the shift that makes the highest heading kind of
// the document's top-level blocks an h2.
func (w *bodyWriter) shiftHeadings(nodes []document.Node) {
	top := 0
	for i := range nodes {
		if l := headingLevel(nodes[i].Type); nodes[i].Object == document.ObjectBlock && isHeading(nodes[i].Type) && (top == 0 || l < top) {
			top = l
		}
	}
	if top > 2 {
		w.shift = top - 2
	}
}

func isHeading(typ string) bool {
	return typ == document.TypeHeading1 || typ == document.TypeHeading2 || typ == document.TypeHeading3
}

func (w *bodyWriter) headingID(n *document.Node) string {
	id := dataString(n, "id")
	if id == "" {
		if s, ok := n.Meta["id"].(string); ok {
			id = s
		}
	}
	if id == "" {
		id = slug(plainText(n.Nodes))
	}
	if id == "" {
		id = "section"
	}
	c := w.ids[id]
	w.ids[id] = c + 1
	if c > 0 {
		id += "-" + strconv.Itoa(c)
	}
	return w.idPrefix + id
}

// slug makes an anchor from heading text: lower-case letters and digits
// joined by hyphens.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && isLetter(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

func (w *bodyWriter) list(n *document.Node) {
	tag := "ul"
	switch n.Type {
	case document.TypeListOrdered:
		tag = "ol"
		if s, ok := n.Data["start"].(float64); ok && s != 1 {
			w.raw("<ol")
			w.attr("start", strconv.Itoa(int(s)))
			w.raw(">")
		} else {
			w.raw("<ol>")
		}
	case document.TypeListTasks:
		w.raw(`<ul class="tasks">`)
	default:
		w.raw("<ul>")
	}
	for i := range n.Nodes {
		item := &n.Nodes[i]
		w.raw("<li>")
		if checked, ok := item.Data["checked"].(bool); ok || n.Type == document.TypeListTasks {
			w.raw(`<input type="checkbox" disabled`)
			if checked {
				w.raw(" checked")
			}
			w.raw(` aria-label="`)
			if checked {
				w.raw("Done")
			} else {
				w.raw("Not done")
			}
			w.raw(`"> `)
		}
		// A lone paragraph is written without its <p>, as a tight list.
		if len(item.Nodes) == 1 && item.Nodes[0].Type == document.TypeParagraph {
			w.inlines(item.Nodes[0].Nodes)
		} else {
			w.blocks(item.Nodes)
		}
		w.raw("</li>\n")
	}
	w.raw("</" + tag + ">\n")
}

// hintLabel names a hint style for readers of assistive technology.
func hintLabel(style string) (string, string) {
	switch style {
	case "success":
		return "success", "Success"
	case "warning":
		return "warning", "Warning"
	case "danger":
		return "danger", "Danger"
	}
	return "info", "Info"
}

func (w *bodyWriter) hint(n *document.Node) {
	class, label := hintLabel(dataString(n, "style"))
	w.raw(`<div class="hint hint-` + class + `" role="note" aria-label="` + label + `">`)
	w.raw(`<span class="hint-icon" aria-hidden="true"></span><div class="hint-body">`)
	w.blocks(n.Nodes)
	w.raw("</div></div>\n")
}

func (w *bodyWriter) images(n *document.Node) {
	class := "images"
	switch dataString(n, "align") {
	case "center":
		class += " align-center"
	case "right":
		class += " align-right"
	}
	w.raw(`<div class="` + class + `">`)
	for i := range n.Nodes {
		img := &n.Nodes[i]
		if img.Type != document.TypeImage {
			continue
		}
		ref, _ := document.RefOf(img.Data["ref"])
		src := SafeURL(w.res.image(ref))
		w.raw("<figure>")
		dark := ""
		if r, ok := document.RefOf(img.Data["refDark"]); ok {
			dark = SafeURL(w.res.image(r))
		}
		if dark != "" {
			w.raw(`<picture><source media="(prefers-color-scheme: dark)"`)
			w.attr("srcset", dark)
			w.raw(">")
		}
		if src != "" {
			w.raw(`<img loading="lazy"`)
			w.attr("src", src)
			w.attr("alt", dataString(img, "alt"))
			for _, k := range []string{"width", "height"} {
				if l, ok := pixelLength(img.Data[k]); ok {
					w.attr(k, l)
				}
			}
			w.raw(">")
		} else {
			w.raw(`<span class="missing-image">`)
			w.text(dataString(img, "alt"))
			w.raw("</span>")
		}
		if dark != "" {
			w.raw("</picture>")
		}
		if caption := fragment(img, "caption"); strings.TrimSpace(plainText(caption)) != "" {
			w.raw("<figcaption>")
			for i := range caption {
				w.inlines(caption[i].Nodes)
			}
			w.raw("</figcaption>")
		}
		w.raw("</figure>")
	}
	w.raw("</div>\n")
}

// pixelLength reads an image dimension in pixels.
func pixelLength(v any) (string, bool) {
	switch x := v.(type) {
	case float64:
		return strconv.Itoa(int(x)), x > 0
	case int:
		return strconv.Itoa(x), x > 0
	case map[string]any:
		if u, _ := x["unit"].(string); u == "px" || u == "" {
			return pixelLength(x["value"])
		}
	}
	return "", false
}

func (w *bodyWriter) file(n *document.Node) {
	ref, _ := document.RefOf(n.Data["ref"])
	t := w.res.file(ref)
	name := t.Title
	if name == "" {
		name = path.Base(t.URL)
	}
	caption := dataString(n, "caption")
	w.raw(`<div class="file"><span class="file-icon" aria-hidden="true"></span>`)
	if u := SafeURL(t.URL); u != "" {
		w.raw("<a download")
		w.attr("href", u)
		w.raw(">")
		w.text(firstNonEmpty(caption, name))
		w.raw("</a>")
	} else {
		w.raw("<span>")
		w.text(firstNonEmpty(caption, name))
		w.raw("</span>")
	}
	if caption != "" && name != "" && name != "." {
		w.raw(` <span class="file-name">`)
		w.text(name)
		w.raw("</span>")
	}
	w.raw("</div>\n")
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// embed writes an embed as a link card: pages from other sites are not
// framed.
func (w *bodyWriter) embed(n *document.Node) {
	u := dataString(n, "url")
	if ref, ok := document.RefOf(n.Data["ref"]); ok {
		u = w.res.link(ref).URL
	}
	u = SafeURL(u)
	caption := dataString(n, "caption")
	w.raw(`<div class="embed">`)
	if u != "" {
		w.raw(`<a rel="noopener"`)
		w.attr("href", u)
		w.raw(`><span class="embed-label">Embedded content</span> <span class="embed-url">`)
		w.text(u)
		w.raw("</span></a>")
	}
	if caption != "" {
		w.raw("<p>")
		w.text(caption)
		w.raw("</p>")
	}
	w.raw("</div>\n")
}

func (w *bodyWriter) math(tex string, block bool) {
	tex = strings.TrimSpace(tex)
	tag := "span"
	if block {
		tag = "div"
	}
	w.raw("<" + tag + ` class="math" role="math"`)
	w.attr("aria-label", tex)
	w.raw("><code>")
	w.text(tex)
	w.raw("</code></" + tag + ">")
	if block {
		w.raw("\n")
	}
}

func (w *bodyWriter) expandable(n *document.Node) {
	w.raw(`<details class="expandable"><summary>`)
	title := fragment(n, "expandable-title")
	for i := range title {
		w.inlines(title[i].Nodes)
	}
	w.raw(`</summary><div class="expandable-body">`)
	w.blocks(fragment(n, "expandable-body"))
	w.raw("</div></details>\n")
}

// tabs writes tabs with the ARIA tab pattern; without JavaScript every
// panel after the first stays hidden.
func (w *bodyWriter) tabs(n *document.Node) {
	base := w.nextID("tabs-")
	w.raw(`<div class="tabs" data-tabs><div class="tablist" role="tablist">`)
	for i := range n.Nodes {
		id := base + "-" + strconv.Itoa(i)
		sel := i == 0
		w.raw(`<button type="button" role="tab"`)
		w.attr("id", id+"-tab")
		w.attr("aria-controls", id+"-panel")
		if sel {
			w.raw(` aria-selected="true" tabindex="0"`)
		} else {
			w.raw(` aria-selected="false" tabindex="-1"`)
		}
		w.raw(">")
		title := dataString(&n.Nodes[i], "title")
		if title == "" {
			title = "Tab " + strconv.Itoa(i+1)
		}
		w.text(title)
		w.raw("</button>")
	}
	w.raw("</div>")
	for i := range n.Nodes {
		id := base + "-" + strconv.Itoa(i)
		w.raw(`<div class="tabpanel" role="tabpanel" tabindex="0"`)
		w.attr("id", id+"-panel")
		w.attr("aria-labelledby", id+"-tab")
		if i > 0 {
			w.raw(" hidden")
		}
		w.raw(">")
		w.blocks(n.Nodes[i].Nodes)
		w.raw("</div>")
	}
	w.raw("</div>\n")
}

func (w *bodyWriter) stepper(n *document.Node) {
	w.raw(`<ol class="stepper">`)
	for i := range n.Nodes {
		w.raw(`<li class="step">`)
		w.blocks(n.Nodes[i].Nodes)
		w.raw("</li>")
	}
	w.raw("</ol>\n")
}

func (w *bodyWriter) columns(n *document.Node) {
	w.raw(`<div class="columns">`)
	for i := range n.Nodes {
		c := &n.Nodes[i]
		w.raw(`<div class="column"`)
		if pct, ok := percent(c.Data["width"]); ok {
			w.raw(` style="flex-basis:` + pct + `%"`)
		}
		w.raw(">")
		w.blocks(c.Nodes)
		w.raw("</div>")
	}
	w.raw("</div>\n")
}

// percent reads a column width given in percent, as digits only.
func percent(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok || m["unit"] != "%" {
		return "", false
	}
	f, ok := m["value"].(float64)
	if !ok || f <= 0 || f > 100 {
		return "", false
	}
	return strconv.FormatFloat(f, 'f', 2, 64), true
}

func (w *bodyWriter) update(n *document.Node) {
	w.raw(`<section class="update"><p class="update-meta">`)
	if d := dataString(n, "date"); d != "" {
		w.raw("<time")
		w.attr("datetime", d)
		w.raw(">")
		w.text(d)
		w.raw("</time>")
	}
	if tags, ok := n.Data["tags"].([]any); ok {
		for _, t := range tags {
			if s, ok := t.(string); ok {
				w.raw(` <span class="tag">`)
				w.text(s)
				w.raw("</span>")
			}
		}
	}
	w.raw("</p>")
	w.blocks(n.Nodes)
	w.raw("</section>\n")
}

func (w *bodyWriter) contentRef(n *document.Node) {
	ref, _ := document.RefOf(n.Data["ref"])
	t := w.res.link(ref)
	u := SafeURL(t.URL)
	title := firstNonEmpty(t.Title, strings.TrimSuffix(path.Base(strings.TrimSuffix(t.URL, "/")), ".md"), t.URL)
	if u == "" {
		return
	}
	w.raw(`<a class="content-ref"`)
	w.attr("href", u)
	w.raw(`><span class="content-ref-title">`)
	w.text(title)
	w.raw(`</span><span class="content-ref-arrow" aria-hidden="true">→</span></a>` + "\n")
}

func (w *bodyWriter) reusable(n *document.Node) {
	if w.res.Reusable == nil || w.depth > 4 {
		return
	}
	ref, ok := document.RefOf(n.Data["ref"])
	if !ok {
		return
	}
	if doc := w.res.Reusable(ref); doc != nil {
		w.depth++
		w.blocks(doc.Nodes)
		w.depth--
	}
}
