package document

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// needsHTMLTable reports whether a table has what a pipe table cannot
// carry: a cards view, a hidden header or columns, widths, full width,
// link and file columns, or cells holding more than one paragraph.
func needsHTMLTable(n Node) bool {
	view, _ := n.Data["view"].(map[string]any)
	if typ, _ := view["type"].(string); typ != "" && typ != "grid" {
		return true
	}
	if h, _ := view["hideHeader"].(bool); h {
		return true
	}
	if w, _ := view["columnWidths"].(map[string]any); len(w) > 0 {
		return true
	}
	if _, ok := n.Data["fullWidth"].(bool); ok {
		return true
	}
	defs, _ := n.Data["definition"].(map[string]any)
	visible := map[string]bool{}
	if cols, ok := view["columns"].([]any); ok {
		for _, c := range cols {
			if s, ok := c.(string); ok {
				visible[s] = true
			}
		}
	}
	for id, d := range defs {
		if !visible[id] {
			return true
		}
		dm, _ := d.(map[string]any)
		switch dm["type"] {
		case columnContentRef, columnFiles, columnImage:
			return true
		}
	}
	for _, f := range n.Fragments {
		if len(f.Nodes) > 1 || len(f.Nodes) == 1 && f.Nodes[0].Type != TypeParagraph {
			return true
		}
	}
	return false
}

// htmlColumnIDs returns the definition ids in the order their columns are
// written: by position when the ids are the positional ones FromMarkdown
// gives (c1, c2, …) and the visible ones are in that order, else the
// visible columns first.
func htmlColumnIDs(data map[string]any) []string {
	ids := tableColumnIDs(data)
	pos := func(id string) int {
		if len(id) < 2 || id[0] != 'c' {
			return -1
		}
		k, err := strconv.Atoi(id[1:])
		if err != nil || k <= 0 || strconv.Itoa(k) != id[1:] {
			return -1
		}
		return k
	}
	view, _ := data["view"].(map[string]any)
	last := 0
	if cols, ok := view["columns"].([]any); ok {
		for _, c := range cols {
			s, _ := c.(string)
			if p := pos(s); p > last {
				last = p
			} else {
				return ids
			}
		}
	}
	for _, id := range ids {
		if pos(id) < 0 {
			return ids
		}
	}
	sorted := slices.Clone(ids)
	slices.SortFunc(sorted, func(a, b string) int { return pos(a) - pos(b) })
	return sorted
}

// htmlTable writes a table as GitBook's HTML table, on one line.
func (w *mdWriter) htmlTable(n Node) string {
	defs, _ := n.Data["definition"].(map[string]any)
	view, _ := n.Data["view"].(map[string]any)
	ids := htmlColumnIDs(n.Data)
	visible := map[string]bool{}
	if cols, ok := view["columns"].([]any); ok {
		for _, c := range cols {
			if s, ok := c.(string); ok {
				visible[s] = true
			}
		}
	}
	cards := view["type"] == "cards"
	var b strings.Builder
	b.WriteString("<table")
	if cards {
		b.WriteString(` data-view="cards"`)
		if view["cardSize"] == "large" {
			b.WriteString(` data-card-size="large"`)
		}
	}
	if v, ok := n.Data["fullWidth"].(bool); ok {
		b.WriteString(` data-full-width="` + strconv.FormatBool(v) + `"`)
	}
	if h, _ := view["hideHeader"].(bool); h && !cards {
		b.WriteString(" data-header-hidden")
	}
	b.WriteString("><thead><tr>")
	widths, _ := view["columnWidths"].(map[string]any)
	types := make([]string, len(ids))
	for i, id := range ids {
		d, _ := defs[id].(map[string]any)
		typ, _ := d["type"].(string)
		types[i] = typ
		b.WriteString("<th")
		if !visible[id] {
			b.WriteString(" data-hidden")
		}
		switch id {
		case view["targetDefinition"]:
			b.WriteString(" data-card-target")
		case view["coverDefinition"]:
			b.WriteString(" data-card-cover")
		case view["coverDefinitionDark"]:
			b.WriteString(" data-card-cover-dark")
		}
		if typ != columnText && typ != "" {
			b.WriteString(` data-type="` + escapeHTMLAttr(typ) + `"`)
		}
		if l, ok := formatLength(widths[id]); ok {
			b.WriteString(` width="` + escapeHTMLAttr(l) + `"`)
		}
		if a, _ := d["textAlignment"].(string); a == "center" || a == "right" {
			b.WriteString(` align="` + a + `"`)
		}
		title, _ := d["title"].(string)
		b.WriteString(">" + escapeHTMLText(title) + "</th>")
	}
	b.WriteString("</tr></thead><tbody>")
	frags := map[string][]Node{}
	for _, f := range n.Fragments {
		frags[f.Fragment] = f.Nodes
	}
	recs, _ := n.Data["records"].(map[string]any)
	for _, rid := range tableRecordIDs(n.Data) {
		r, _ := recs[rid].(map[string]any)
		values, _ := r["values"].(map[string]any)
		b.WriteString("<tr>")
		for i, id := range ids {
			b.WriteString("<td>")
			v := values[id]
			switch types[i] {
			case columnText, "":
				if s, ok := v.(string); ok {
					b.WriteString(w.htmlCell(frags[s]))
				}
			default:
				b.WriteString(w.htmlCellValue(v, types[i]))
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// htmlCellValue writes the value of a non-text cell: links for card
// targets, files and images, text for the others.
func (w *mdWriter) htmlCellValue(v any, typ string) string {
	link := func(r Ref, use TargetUse, label string) string {
		t := w.opts.targetForRef(r, use)
		if label == "" {
			// GitBook names a page or file by the last part of its path
			// ("README.md", a folder's name); a card target's URL in full.
			label = t
			if typ != columnContentRef || !HasScheme(t) {
				if trimmed := strings.TrimSuffix(t, "/"); trimmed != "" {
					label = path.Base(trimmed)
				}
			}
		}
		return `<a href="` + escapeHTMLAttr(t) + `">` + escapeHTMLText(label) + "</a>"
	}
	switch typ {
	case columnContentRef:
		if r, ok := refValue(v); ok {
			return link(r, UseContentRef, "")
		}
	case columnImage:
		if m, ok := v.(map[string]any); ok && m["kind"] == nil {
			v = m["ref"]
		}
		if r, ok := refValue(v); ok {
			return link(r, UseImage, "")
		}
	case columnFiles:
		list, _ := v.([]any)
		var b strings.Builder
		for _, f := range list {
			if s, ok := f.(string); ok {
				b.WriteString(link(Ref{Kind: RefFile, File: s}, UseImage, ""))
			}
		}
		return b.String()
	}
	return escapeHTMLText(strings.ReplaceAll(tableValueText(v), "\n", " "))
}

// tableValueText writes a plain cell value as text.
func tableValueText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	if f, ok := numberValue(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return ""
}

// htmlCell writes a text cell: a lone paragraph as inline HTML, other
// content as HTML blocks.
func (w *mdWriter) htmlCell(blocks []Node) string {
	if len(blocks) == 1 && blocks[0].Type == TypeParagraph {
		return w.htmlInlines(blocks[0].Nodes)
	}
	var b strings.Builder
	for _, n := range blocks {
		b.WriteString(w.htmlBlock(n))
	}
	return b.String()
}

// htmlBlock writes a block as HTML, for table cells and list items
// inside them. Blocks without an HTML form are written as a paragraph of
// their text.
func (w *mdWriter) htmlBlock(n Node) string {
	switch n.Type {
	case TypeParagraph:
		if a := dataString(n, "align"); a != "" {
			return htmlAligned("p", a, w.htmlInlines(n.Nodes))
		}
		return "<p>" + w.htmlInlines(n.Nodes) + "</p>"
	case TypeHeading1, TypeHeading2, TypeHeading3:
		tag := "h" + strconv.Itoa(min(headingLevel(n.Type)+w.opts.headingOffset, 6))
		if a := dataString(n, "align"); a != "" {
			return htmlAligned(tag, a, w.htmlInlines(n.Nodes)+headingAnchor(n))
		}
		return "<" + tag + ">" + w.htmlInlines(n.Nodes) + headingAnchor(n) + "</" + tag + ">"
	case TypeListOrdered, TypeListUnordered, TypeListTasks:
		tag := "ul"
		attrs := ""
		if n.Type == TypeListOrdered {
			tag = "ol"
			if v, ok := numberValue(n.Data["start"]); ok && v != 1 && v >= 0 && v < 1e9 {
				attrs = ` start="` + strconv.Itoa(int(v)) + `"`
			}
		}
		var b strings.Builder
		b.WriteString("<" + tag + attrs + ">")
		for _, item := range n.Nodes {
			b.WriteString("<li>" + w.htmlCell(item.Nodes) + "</li>")
		}
		b.WriteString("</" + tag + ">")
		return b.String()
	case TypeCode:
		return w.htmlCode(n, true)
	case TypeImages, TypeImage:
		imgs := n
		if n.Type == TypeImage {
			imgs = Block(TypeImages, nil, n)
		}
		return w.images(imgs, true)
	case TypeBlockquote:
		var b strings.Builder
		for _, c := range n.Nodes {
			b.WriteString(w.htmlBlock(c))
		}
		return "<blockquote>" + b.String() + "</blockquote>"
	case TypeDivider:
		return "<hr>"
	case TypeTable:
		return w.htmlTable(n)
	case TypeRaw:
		return dataString(n, "markdown")
	}
	var b strings.Builder
	writePlainBlock(&b, n)
	return "<p>" + strings.ReplaceAll(escapeHTMLText(strings.TrimSpace(b.String())), "\n", "<br>") + "</p>"
}
