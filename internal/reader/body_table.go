package reader

import (
	"strconv"
	"strings"

	"quire/internal/document"
)

// table writes a table block: a grid as an HTML table, a cards view as
// a list of cards.
func (w *bodyWriter) table(n *document.Node) {
	view, _ := n.Data["view"].(map[string]any)
	if view["type"] == "cards" {
		w.cards(n, view)
		return
	}
	cols, rows := document.TableRows(*n)
	hideHeader, _ := view["hideHeader"].(bool)
	w.raw(`<div class="table-wrap" tabindex="0"><table>`)
	if !hideHeader {
		w.raw("<thead><tr>")
		for _, c := range cols {
			w.raw(`<th scope="col"` + alignAttr(c.Align) + ">")
			w.text(c.Title)
			w.raw("</th>")
		}
		w.raw("</tr></thead>")
	}
	w.raw("<tbody>")
	for _, r := range rows {
		w.raw("<tr>")
		for i, c := range r {
			align := ""
			if i < len(cols) {
				align = cols[i].Align
			}
			w.raw("<td" + alignAttr(align) + ">")
			w.cell(c)
			w.raw("</td>")
		}
		w.raw("</tr>")
	}
	w.raw("</tbody></table></div>\n")
}

func alignAttr(a string) string {
	switch a {
	case "center":
		return ` class="align-center"`
	case "right":
		return ` class="align-right"`
	}
	return ""
}

// cell writes a table cell: its blocks, or its value as text or a link.
func (w *bodyWriter) cell(c document.TableCell) {
	if c.Blocks != nil {
		if len(c.Blocks) == 1 && c.Blocks[0].Type == document.TypeParagraph {
			w.inlines(c.Blocks[0].Nodes)
			return
		}
		w.blocks(c.Blocks)
		return
	}
	w.value(c.Value)
}

// value writes a non-text cell value.
func (w *bodyWriter) value(v any) {
	switch x := v.(type) {
	case nil:
	case string:
		w.text(x)
	case bool:
		if x {
			w.raw(`<span aria-label="yes">✓</span>`)
		}
	case float64:
		w.text(strconv.FormatFloat(x, 'f', -1, 64))
	case []any:
		for i, e := range x {
			if i > 0 {
				w.raw(", ")
			}
			w.value(e)
		}
	case map[string]any:
		if ref, ok := document.RefOf(x); ok {
			t := w.res.link(ref)
			w.anchor(t.URL, "", "", func() { w.text(firstNonEmpty(t.Title, t.URL)) })
		}
	}
}

// cards writes a cards view: each record a card with its optional cover,
// its visible cells, and a link over the card to its target.
func (w *bodyWriter) cards(n *document.Node, view map[string]any) {
	_, rows := document.TableRows(*n)
	recs, _ := n.Data["records"].(map[string]any)
	ids := document.TableRecordIDs(*n)
	target, _ := view["targetDefinition"].(string)
	cover, _ := view["coverDefinition"].(string)
	class := "cards"
	if view["cardSize"] == "large" {
		class += " cards-large"
	}
	w.raw(`<ul class="` + class + `">`)
	for i, row := range rows {
		var values map[string]any
		if i < len(ids) {
			r, _ := recs[ids[i]].(map[string]any)
			values, _ = r["values"].(map[string]any)
		}
		w.raw(`<li class="card">`)
		if src := w.cardImage(values[cover]); src != "" {
			w.raw(`<img class="card-cover" loading="lazy" alt=""`)
			w.attr("src", src)
			w.raw(">")
		}
		w.raw(`<div class="card-body">`)
		for _, c := range row {
			w.raw(`<div class="card-cell">`)
			w.cell(c)
			w.raw("</div>")
		}
		w.raw("</div>")
		if ref, ok := document.RefOf(values[target]); ok {
			if u := SafeURL(w.res.link(ref).URL); u != "" {
				label := ""
				if len(row) > 0 {
					label = strings.TrimSpace(plainText(row[0].Blocks))
				}
				w.raw(`<a class="card-link"`)
				w.attr("href", u)
				w.attr("aria-label", firstNonEmpty(label, "Open"))
				w.raw("></a>")
			}
		}
		w.raw("</li>")
	}
	w.raw("</ul>\n")
}

// cardImage resolves a card's cover: a files column's first file or an
// image reference.
func (w *bodyWriter) cardImage(v any) string {
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			if s, ok := x[0].(string); ok {
				return SafeURL(w.res.image(document.Ref{Kind: document.RefFile, File: s}))
			}
		}
	case map[string]any:
		if r, ok := x["ref"]; ok && x["kind"] == nil {
			return w.cardImage(r)
		}
		if ref, ok := document.RefOf(x); ok {
			return SafeURL(w.res.image(ref))
		}
	}
	return ""
}
