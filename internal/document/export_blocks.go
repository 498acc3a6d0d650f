package document

import (
	"path"
	"strconv"
	"strings"
)

func (w *mdWriter) code(n Node) string {
	if codeNeedsHTML(n) {
		return w.htmlCode(n, false)
	}
	var body strings.Builder
	for i, line := range n.Nodes {
		if i > 0 {
			body.WriteByte('\n')
		}
		writePlainInlines(&body, line.Nodes)
	}
	content := body.String()
	fence := "```"
	for strings.Contains(content, fence) {
		fence += "`"
	}
	code := fence + dataString(n, "syntax") + "\n" + content + "\n" + fence
	var attrs []string
	if t := dataString(n, "title"); t != "" {
		attrs = append(attrs, "title", t)
	}
	if o := dataString(n, "overflow"); o == "wrap" {
		attrs = append(attrs, "overflow", o)
	}
	for _, k := range []string{"lineNumbers", "expandable", "fullWidth"} {
		if v, ok := n.Data[k].(bool); ok {
			attrs = append(attrs, k, strconv.FormatBool(v))
		}
	}
	if len(attrs) == 0 {
		return code
	}
	return wrapTag("code", attrs, code)
}

func (w *mdWriter) expandable(n Node) string {
	var title, body []Node
	for _, f := range n.Fragments {
		switch f.Fragment {
		case "expandable-title":
			for _, p := range f.Nodes {
				title = append(title, p.Nodes...)
			}
		case "expandable-body":
			body = f.Nodes
		}
	}
	var b strings.Builder
	b.WriteString("<details>\n\n<summary>")
	b.WriteString(strings.ReplaceAll(w.htmlInlines(title), "\n", "<br>"))
	b.WriteString("</summary>\n\n")
	if s := w.blocks(body); s != "" {
		b.WriteString(s)
		b.WriteString("\n\n")
	}
	b.WriteString("</details>")
	return b.String()
}

func (w *mdWriter) embed(n Node) string {
	url := w.opts.targetForRef(Ref{Kind: RefURL, URL: dataString(n, "url")}, UseEmbed)
	if r, ok := refValue(n.Data["ref"]); ok {
		url = w.opts.targetForRef(r, UseEmbed)
	}
	attrs := []string{"url", url}
	if v, ok := n.Data["fullWidth"].(bool); ok {
		attrs = append(attrs, "fullWidth", strconv.FormatBool(v))
	}
	caption := dataString(n, "caption")
	if caption == "" {
		return openTag("embed", attrs)
	}
	return wrapTag("embed", attrs, w.paragraph(Paragraph(caption)))
}

func (w *mdWriter) contentRef(n Node) string {
	t := w.target(n, "ref", UseContentRef)
	label := path.Base(strings.TrimSuffix(t, "/"))
	if label == "." || label == "/" {
		label = t
	}
	link := "[" + escapeText(label, ctxParagraph) + "](" + formatTarget(t) + ")"
	return wrapTag("content-ref", []string{"url", t}, link)
}

func (w *mdWriter) file(n Node) string {
	caption := ""
	if c := dataString(n, "caption"); c != "" {
		caption = w.paragraph(Paragraph(c))
	}
	return wrapTag("file", []string{"src", w.target(n, "ref", UseFile)}, caption)
}

// images writes an images block: a lone plain image as Markdown, anything
// with a caption, size, dark variant or block options as HTML figures;
// with html, always as figures.
func (w *mdWriter) images(n Node, html bool) string {
	var imgs []Node
	for _, c := range n.Nodes {
		if c.Object == ObjectBlock && c.Type == TypeImage {
			imgs = append(imgs, c)
		}
	}
	if len(imgs) == 0 {
		return ""
	}
	if !html && len(imgs) == 1 && len(n.Data) == 0 && isPlainImage(imgs[0]) {
		img := imgs[0]
		return "![" + escapeText(dataString(img, "alt"), ctxParagraph) + "](" +
			formatTarget(w.target(img, "ref", UseImage)) + titleSuffix(img) + ")"
	}
	var b strings.Builder
	wrapped := len(imgs) > 1 || len(n.Data) > 0
	if wrapped {
		b.WriteString("<div")
		if a := dataString(n, "align"); a != "" {
			b.WriteString(` align="` + escapeHTMLAttr(a) + `"`)
		}
		if v, ok := n.Data["fullWidth"].(bool); ok {
			b.WriteString(` data-full-width="` + strconv.FormatBool(v) + `"`)
		}
		if v, ok := n.Data["withFrame"].(bool); ok {
			b.WriteString(` data-with-frame="` + strconv.FormatBool(v) + `"`)
		}
		b.WriteString(">")
	}
	for i, img := range imgs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.figure(img))
	}
	if wrapped {
		b.WriteString("</div>")
	}
	return b.String()
}

func isPlainImage(img Node) bool {
	for k := range img.Data {
		if k != "ref" && k != "alt" && k != "title" {
			return false
		}
	}
	return len(captionNodes(img)) == 0
}

// captionNodes returns the inline content of an image's caption.
func captionNodes(img Node) []Node {
	var out []Node
	for _, f := range img.Fragments {
		if f.Fragment != "caption" {
			continue
		}
		for _, p := range f.Nodes {
			out = append(out, p.Nodes...)
		}
	}
	if strings.TrimSpace(plainOf(out)) == "" && loneInlineImage(out) == nil {
		return nil
	}
	return out
}

func plainOf(nodes []Node) string {
	var b strings.Builder
	writePlainInlines(&b, nodes)
	return b.String()
}

func (w *mdWriter) figure(img Node) string {
	var b strings.Builder
	b.WriteString("<figure>")
	dark := w.target(img, "refDark", UseImage)
	if dark != "" {
		b.WriteString(`<picture><source srcset="` + escapeHTMLAttr(dark) + `" media="(prefers-color-scheme: dark)">`)
	}
	b.WriteString(`<img src="` + escapeHTMLAttr(w.target(img, "ref", UseImage)) + `" alt="` +
		escapeHTMLAttr(dataString(img, "alt")) + `"`)
	for _, k := range []string{"width", "height"} {
		if l, ok := formatLength(img.Data[k]); ok {
			b.WriteString(" " + k + `="` + escapeHTMLAttr(l) + `"`)
		}
	}
	b.WriteString(htmlTitleAttr(img) + ">")
	if dark != "" {
		b.WriteString("</picture>")
	}
	b.WriteString("<figcaption>")
	if c := captionNodes(img); len(c) > 0 {
		b.WriteString("<p>" + w.htmlInlines(c) + "</p>")
	}
	b.WriteString("</figcaption></figure>")
	return b.String()
}
