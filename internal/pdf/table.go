package pdf

import (
	"fmt"

	"quire/internal/document"
)

// Table cell padding and the smallest column width, in points.
const (
	cellPad     = 4.0
	minColWidth = 40.0
)

// tableCell is a laid out cell: its lines and their heights.
type tableCell struct {
	lines [][]unit
	h     float64
}

// table sets a table block as a grid: a shaded header row, then the
// records, repeating the header on each new PDF page.
func (r *renderer) table(n document.Node) {
	cols, rows := document.TableRows(n)
	if len(cols) == 0 {
		return
	}
	headUnits := make([][]unit, len(cols))
	for i, c := range cols {
		headUnits[i] = r.plainUnits(c.Title, style{face: FaceBold, size: 9.5, color: colorText})
	}
	cellUnits := make([][][]unit, len(rows))
	for i, row := range rows {
		cellUnits[i] = make([][]unit, len(cols))
		for j := range cols {
			if j < len(row) {
				cellUnits[i][j] = r.units(r.cellRuns(row[j]))
			}
		}
	}
	widths := r.columnWidths(headUnits, cellUnits)
	header := make([]tableCell, len(cols))
	for i := range cols {
		header[i] = r.tableCell(headUnits[i], widths[i])
	}
	laid := make([][]tableCell, len(rows))
	for i := range rows {
		laid[i] = make([]tableCell, len(cols))
		for j := range cols {
			laid[i][j] = r.tableCell(cellUnits[i][j], widths[j])
		}
	}
	r.ensure(rowHeight(header) + rowHeight(firstOr(laid)))
	r.tableRow(header, widths, true)
	for _, row := range laid {
		h := rowHeight(row)
		if r.y+h > pageH-bottomMargin {
			r.newPage()
			r.tableRow(header, widths, true)
		}
		r.tableRow(row, widths, false)
	}
	r.y += 10
}

// firstOr returns the first row, or nil.
func firstOr(rows [][]tableCell) []tableCell {
	if len(rows) == 0 {
		return nil
	}
	return rows[0]
}

// cellRuns returns the runs of a cell: its blocks one per line, or its
// value as text.
func (r *renderer) cellRuns(c document.TableCell) []run {
	st := style{face: FaceRegular, size: 9.5, color: colorText}
	if c.Blocks == nil {
		switch v := c.Value.(type) {
		case nil:
			return nil
		case string:
			return []run{{text: v, st: st}}
		case bool:
			if v {
				return []run{{text: "✓", st: st}}
			}
			return nil
		default:
			return []run{{text: fmt.Sprint(v), st: st}}
		}
	}
	var runs []run
	for i, b := range c.Blocks {
		if i > 0 {
			runs = append(runs, run{text: "\n", st: st})
		}
		runs = append(runs, r.inlineRuns(b.Nodes, st)...)
	}
	return runs
}

// tableCell lays out a cell's units in a column of width w.
func (r *renderer) tableCell(units []unit, w float64) tableCell {
	c := tableCell{lines: r.layout(units, w-2*cellPad)}
	for _, l := range c.lines {
		c.h += lineHeight(l)
	}
	return c
}

// rowHeight is the height of a row: its tallest cell, padded.
func rowHeight(row []tableCell) float64 {
	h := 9.5 * lineFactor
	for _, c := range row {
		h = max(h, c.h)
	}
	return h + 2*cellPad
}

// tableRow sets a row of cells with its borders.
func (r *renderer) tableRow(row []tableCell, widths []float64, header bool) {
	h := rowHeight(row)
	r.fresh = false
	r.stroke(colorRule)
	r.gp.SetLineWidth(0.6)
	x := r.left
	for i, c := range row {
		colW := widths[i]
		if header {
			r.rect(x, r.y, colW, h, colorShade)
		}
		r.gp.RectFromUpperLeftWithStyle(x, r.y, colW, h, "D")
		y := r.y + cellPad
		for _, l := range c.lines {
			lh := lineHeight(l)
			r.drawLine(l, x+cellPad, y, lh)
			y += lh
		}
		x += colW
	}
	r.y += h
}

// columnWidths shares the column's width among the columns in proportion
// to the width their widest cell would take on one line, each at least
// minColWidth (or an equal share, when the columns are too many).
func (r *renderer) columnWidths(head [][]unit, rows [][][]unit) []float64 {
	n := len(head)
	floor := min(minColWidth, r.width/float64(n))
	want := make([]float64, n)
	natural := func(units []unit) float64 {
		w, line := 0.0, 0.0
		for _, u := range units {
			if u.kind == unitBreak {
				w, line = max(w, line), 0
				continue
			}
			line += u.w
		}
		return max(w, line) + 2*cellPad
	}
	for j := range n {
		want[j] = natural(head[j])
		for _, row := range rows {
			want[j] = max(want[j], natural(row[j]))
		}
		want[j] = min(max(want[j], floor), r.width)
	}
	total := 0.0
	for _, w := range want {
		total += w
	}
	widths := make([]float64, n)
	if total <= r.width {
		for j, w := range want {
			widths[j] = w * r.width / total
		}
		return widths
	}
	// Too wide: columns keep the floor and share the rest by their wish.
	rest, extra := r.width-floor*float64(n), 0.0
	for _, w := range want {
		extra += w - floor
	}
	for j, w := range want {
		widths[j] = floor
		if extra > 0 {
			widths[j] += (w - floor) * rest / extra
		}
	}
	return widths
}
