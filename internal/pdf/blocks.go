package pdf

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"

	"quire/internal/document"
)

// Sizes of headings: the page title, then heading-1 to heading-3.
const (
	titleSize = 22.0
	h1Size    = 17.0
	h2Size    = 14.0
	h3Size    = 12.0
	// indentStep is the indentation of list items, quotes and hints.
	indentStep = 18.0
)

// bookPage sets one page of the book and returns the PDF page it starts
// on. A document page starts a new PDF page unless nothing was set on
// the current one since the group title above it.
func (r *renderer) bookPage(p *Page) int {
	if !r.fresh || r.page == 1 {
		r.newPage()
	}
	start := r.page
	title := cmp.Or(p.Title, untitled)
	if p.Emoji != "" {
		title = document.EmojiFromCode(p.Emoji) + " " + title
	}
	r.gp.SetY(r.y)
	r.gp.SetAnchor(p.ID)
	r.gp.AddOutline(p.Title)
	size := titleSize
	if p.Body == nil && p.Href == "" {
		size = titleSize + 2
	}
	r.paragraph(r.plainUnits(title, style{face: FaceBold, size: size, color: colorText}), 0)
	if p.Description != "" {
		r.y += 2
		r.paragraph(r.plainUnits(p.Description, style{face: FaceItalic, size: 12, color: colorMuted}), 0)
	}
	r.y += 10
	if p.Href != "" && safeURL(p.Href) {
		r.paragraph(r.units([]run{{text: p.Href, st: style{face: FaceRegular, size: bodySize, color: colorLink, link: p.Href}}}), 0)
	}
	if p.Body == nil {
		// A group's title shares its PDF page with the first page below it.
		r.fresh = p.Href == ""
		return start
	}
	r.blocks(p.Body.Nodes)
	return start
}

// blocks sets a list of blocks in the current column.
func (r *renderer) blocks(nodes []document.Node) {
	for _, n := range nodes {
		if r.ctx.Err() != nil {
			return
		}
		r.block(n)
	}
}

// body is the style of body text.
func body() style { return style{face: FaceRegular, size: bodySize, color: colorText} }

// block sets one block.
func (r *renderer) block(n document.Node) {
	switch n.Type {
	case document.TypeParagraph:
		r.paragraph(r.units(r.inlineRuns(n.Nodes, body())), 0)
		r.y += 6
	case document.TypeHeading1, document.TypeHeading2, document.TypeHeading3:
		size := map[string]float64{document.TypeHeading1: h1Size, document.TypeHeading2: h2Size, document.TypeHeading3: h3Size}[n.Type]
		r.y += size * 0.6
		r.ensure(size*lineFactor + 3*bodySize*lineFactor)
		r.paragraph(r.units(r.inlineRuns(n.Nodes, style{face: FaceBold, size: size, color: colorText})), 0)
		r.y += 4
	case document.TypeListOrdered, document.TypeListUnordered, document.TypeListTasks:
		r.list(n)
		r.y += 4
	case document.TypeCode:
		r.code(n)
	case document.TypeHint:
		r.hint(n)
	case document.TypeBlockquote:
		r.bar(colorRule, func() { r.blocks(n.Nodes) })
	case document.TypeDivider:
		r.ensure(14)
		r.stroke(colorRule)
		r.gp.SetLineWidth(0.8)
		r.gp.Line(r.left, r.y+6, r.left+r.width, r.y+6)
		r.y += 14
	case document.TypeTable:
		r.table(n)
	case document.TypeImages:
		for _, img := range n.Nodes {
			r.image(img)
		}
		r.caption(n)
	case document.TypeImage, document.TypeDrawing:
		r.image(n)
		r.caption(n)
	case document.TypeFile:
		r.fileBlock(n)
	case document.TypeMath:
		f, _ := n.Data["formula"].(string)
		r.paragraph(r.plainUnits(f, style{face: FaceMono, size: bodySize, color: colorCode}), 0)
		r.y += 6
	case document.TypeEmbed:
		if u, _ := n.Data["url"].(string); safeURL(u) {
			r.paragraph(r.plainUnits(u, style{face: FaceRegular, size: bodySize, color: colorLink, link: u}), 0)
			r.y += 6
		}
		r.caption(n)
	case document.TypeContentRef:
		r.contentRef(n)
	case document.TypeTabs, document.TypeStepper, document.TypeUpdates:
		for _, item := range n.Nodes {
			if t, _ := item.Data["title"].(string); t != "" {
				r.y += 2
				r.paragraph(r.plainUnits(t, style{face: FaceBold, size: bodySize + 1, color: colorText}), 0)
				r.y += 2
			}
			r.indented(indentStep/2, func() { r.blocks(item.Nodes) })
		}
	case document.TypeExpandable:
		for _, f := range n.Fragments {
			if f.Fragment == "title" || f.Type == "expandable-title" {
				for _, t := range f.Nodes {
					r.paragraph(r.units(r.inlineRuns(t.Nodes, style{face: FaceBold, size: bodySize, color: colorText})), 0)
				}
				continue
			}
			r.indented(indentStep/2, func() { r.blocks(f.Nodes) })
		}
	case document.TypeOpenAPIOp:
		r.operation(n)
	case document.TypeRaw:
		r.rawImages(n)
	case document.TypeSwagger, document.TypeOpenAPISchemas,
		document.TypeOpenAPIWebhook, document.TypeIntegration, document.TypeReusableContent:
		// Blocks whose content lives elsewhere leave no trace.
	default:
		r.blocks(n.Nodes)
		for _, f := range n.Fragments {
			r.blocks(f.Nodes)
		}
	}
}

// indented sets what fn sets with the column indented by dx.
func (r *renderer) indented(dx float64, fn func()) {
	left, width := r.left, r.width
	r.left, r.width = left+dx, max(width-dx, 60)
	fn()
	r.left, r.width = left, width
}

// list sets a list, each item's marker in the margin.
func (r *renderer) list(n document.Node) {
	start := 1
	switch v := n.Data["start"].(type) {
	case float64:
		start = int(v)
	case int:
		start = v
	case json.Number:
		if i, err := v.Int64(); err == nil {
			start = int(i)
		}
	}
	for i, item := range n.Nodes {
		var marker string
		switch n.Type {
		case document.TypeListOrdered:
			marker = strconv.Itoa(start+i) + "."
		case document.TypeListTasks:
			checked, _ := item.Data["checked"].(bool)
			marker = r.taskMarker(checked)
		default:
			marker = "•"
		}
		st := body()
		lh := bodySize * lineFactor
		r.ensure(lh)
		mu := r.plainUnits(marker, st)
		w := 0.0
		for _, u := range mu {
			w += u.w
		}
		r.drawLine(mu, r.left+indentStep-w-5, r.y, lh)
		r.indented(indentStep, func() {
			for j, c := range item.Nodes {
				r.block(c)
				if j == 0 && c.Type == document.TypeParagraph {
					r.y -= 4
				}
			}
		})
	}
}

// taskMarker is a task item's box, checked or not, in a glyph the fonts
// have.
func (r *renderer) taskMarker(checked bool) string {
	box, done := "☐", "☑"
	if !r.fonts.has(FaceRegular, '☐') || !r.fonts.has(FaceRegular, '☑') {
		box, done = "[ ]", "[x]"
	}
	if checked {
		return done
	}
	return box
}

// code sets a code block: each line in the monospace face on a shaded
// band, long lines wrapped.
func (r *renderer) code(n document.Node) {
	st := style{face: FaceMono, size: 9, color: colorText}
	lh := st.size * 1.5
	const pad = 8.0
	if t, _ := n.Data["title"].(string); t != "" {
		r.paragraph(r.plainUnits(t, style{face: FaceBold, size: 9, color: colorMuted}), 0)
	}
	r.ensure(pad + lh)
	r.rect(r.left, r.y, r.width, pad, colorShade)
	r.y += pad
	for _, line := range n.Nodes {
		var runs []run
		for _, c := range r.inlineRuns(line.Nodes, st) {
			c.st.code, c.st.pre, c.st.size = false, true, st.size
			c.text = strings.ReplaceAll(c.text, "\t", "    ")
			runs = append(runs, c)
		}
		units := r.units(runs)
		lines := r.layout(units, r.width-2*pad)
		if len(lines) == 0 {
			lines = [][]unit{nil}
		}
		for _, l := range lines {
			r.ensure(lh)
			r.rect(r.left, r.y, r.width, lh, colorShade)
			r.drawLine(l, r.left+pad, r.y, lh)
			r.y += lh
		}
	}
	r.rect(r.left, r.y, r.width, pad, colorShade)
	r.y += pad + 8
}

// hintColors are the bar colors of the hint styles.
func hintColor(style string) rgb {
	switch style {
	case "warning":
		return 0xd9822b
	case "danger":
		return 0xcf222e
	case "success":
		return 0x2da44e
	}
	return 0x347dd9
}

// hint sets a hint: its blocks indented beside a bar in its style's color.
func (r *renderer) hint(n document.Node) {
	s, _ := n.Data["style"].(string)
	r.bar(hintColor(s), func() { r.blocks(n.Nodes) })
	r.y += 4
}

// bar sets what fn sets indented, with a vertical bar of color c beside
// it on every PDF page it spans.
func (r *renderer) bar(c rgb, fn func()) {
	startPage, startY := r.page, r.y
	r.ensure(bodySize * lineFactor)
	if r.page != startPage {
		startPage, startY = r.page, r.y
	}
	x := r.left
	r.indented(indentStep, fn)
	endPage, endY := r.page, r.y
	for p := startPage; p <= endPage; p++ {
		top, bottom := margin, pageH-bottomMargin
		if p == startPage {
			top = startY
		}
		if p == endPage {
			bottom = endY
		}
		if bottom <= top {
			continue
		}
		if endPage != startPage {
			_ = r.gp.SetPage(p)
		}
		r.rect(x+2, top, 3, bottom-top, c)
	}
	r.y += 4
}

// caption sets a block's caption fragment, if any.
func (r *renderer) caption(n document.Node) {
	for _, f := range n.Fragments {
		if f.Fragment != "caption" {
			continue
		}
		for _, b := range f.Nodes {
			r.paragraph(r.units(r.inlineRuns(b.Nodes, style{face: FaceItalic, size: 9, color: colorMuted})), 0)
		}
		r.y += 6
	}
}

// contentRef sets a link card to a page or URL.
func (r *renderer) contentRef(n document.Node) {
	ref, ok := refOf(n.Data["ref"])
	if !ok {
		return
	}
	st := style{face: FaceBold, size: bodySize, color: colorLink}
	text := ""
	switch {
	case ref.Kind == document.RefURL && safeURL(ref.URL):
		st.link, text = ref.URL, ref.URL
	case ref.Kind == document.RefPage && r.inBook[ref.Page] != "":
		st.anchor, text = ref.Page, "→ "+r.titleOf(ref.Page)
	default:
		return
	}
	r.paragraph(r.plainUnits(text, st), 0)
	r.y += 6
}

// refOf reads a content reference stored in a document's data.
func refOf(v any) (document.Ref, bool) {
	switch x := v.(type) {
	case document.Ref:
		return x, true
	case *document.Ref:
		if x != nil {
			return *x, true
		}
	case map[string]any:
		b, err := json.Marshal(x)
		if err != nil {
			return document.Ref{}, false
		}
		var ref document.Ref
		if json.Unmarshal(b, &ref) == nil && ref.Kind != "" {
			return ref, true
		}
	}
	return document.Ref{}, false
}
