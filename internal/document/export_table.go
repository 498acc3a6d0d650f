package document

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// table writes a GFM pipe table with padded columns. Cells hold their
// paragraphs' inline Markdown; line breaks and paragraph ends become <br>.
func (w *mdWriter) table(n Node) string {
	if needsHTMLTable(n) {
		return w.htmlTable(n)
	}
	t := readTable(n)
	if len(t.cols) == 0 {
		return ""
	}
	rows := make([][]string, 0, len(t.rows)+1)
	header := make([]string, len(t.cols))
	for i, c := range t.cols {
		header[i] = escapeText(c.title, ctxTableCell)
	}
	rows = append(rows, header)
	for _, r := range t.rows {
		row := make([]string, len(t.cols))
		for i, cell := range r {
			row[i] = w.cell(cell)
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(t.cols))
	for i := range widths {
		widths[i] = 3
		for _, r := range rows {
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	var b strings.Builder
	for ri, r := range rows {
		if ri > 0 {
			b.WriteByte('\n')
		}
		writeRow(&b, r, widths)
		if ri == 0 {
			b.WriteByte('\n')
			sep := make([]string, len(t.cols))
			for i, c := range t.cols {
				sep[i] = alignRule(c.align, widths[i])
			}
			writeRow(&b, sep, widths)
		}
	}
	return b.String()
}

func writeRow(b *strings.Builder, cells []string, widths []int) {
	b.WriteString("|")
	for i, c := range cells {
		b.WriteString(" " + c + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)) + " |")
	}
}

func alignRule(align string, width int) string {
	switch align {
	case "center":
		return ":" + strings.Repeat("-", width-2) + ":"
	case "right":
		return strings.Repeat("-", width-1) + ":"
	}
	return strings.Repeat("-", width)
}

func (w *mdWriter) cell(c tableCell) string {
	if c.blocks == nil {
		return tableValue(c.value)
	}
	var parts []string
	for _, b := range c.blocks {
		var s string
		if isTextBlock(b.Type) {
			s = w.inlines(b.Nodes, ctxTableCell)
		} else {
			var sb strings.Builder
			writePlainBlock(&sb, b)
			s = escapeText(strings.TrimSpace(sb.String()), ctxTableCell)
		}
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "<br><br>")
}

// tableValue writes a non-text cell value (numbers, checkboxes, …).
func tableValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return escapeText(x, ctxTableCell)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = tableValue(e)
		}
		return strings.Join(parts, ", ")
	case map[string]any, Ref:
		return ""
	}
	return escapeText(fmt.Sprint(v), ctxTableCell)
}
