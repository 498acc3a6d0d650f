package document

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// tableColumn is one column of a table: its definition id, title and
// text alignment (left, center or right).
type tableColumn struct {
	id, title, align, typ string
}

// tableCell is the content of one cell: the blocks of a text column's
// fragment, or the raw value of another column type.
type tableCell struct {
	blocks []Node
	value  any
}

// tableView is a table read into columns and ordered rows.
type tableView struct {
	cols []tableColumn
	rows [][]tableCell
}

// tableColumnIDs returns the definition ids in display order: the view's
// columns first, then any other definitions sorted by id.
func tableColumnIDs(data map[string]any) []string {
	view, _ := data["view"].(map[string]any)
	defs, _ := data["definition"].(map[string]any)
	var ids []string
	seen := map[string]bool{}
	if cols, ok := view["columns"].([]any); ok {
		for _, c := range cols {
			if s, ok := c.(string); ok && !seen[s] {
				if _, exists := defs[s]; exists {
					ids = append(ids, s)
					seen[s] = true
				}
			}
		}
	}
	var rest []string
	for id := range defs {
		if !seen[id] {
			rest = append(rest, id)
		}
	}
	slices.Sort(rest)
	return append(ids, rest...)
}

// tableRecordIDs returns the record ids ordered by orderIndex, then id.
func tableRecordIDs(data map[string]any) []string {
	recs, _ := data["records"].(map[string]any)
	type keyed struct{ id, order string }
	recIDs := make([]keyed, 0, len(recs))
	for id, v := range recs {
		r, _ := v.(map[string]any)
		order, ok := r["orderIndex"].(string)
		if !ok {
			order = fmt.Sprint(r["orderIndex"])
		}
		recIDs = append(recIDs, keyed{id, order})
	}
	// Each record's order is read once, not once per comparison.
	slices.SortFunc(recIDs, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.id, b.id))
	})
	ids := make([]string, len(recIDs))
	for i, r := range recIDs {
		ids[i] = r.id
	}
	return ids
}

// readTable reads a table block into columns and rows.
func readTable(n Node) tableView {
	var t tableView
	defs, _ := n.Data["definition"].(map[string]any)
	view, _ := n.Data["view"].(map[string]any)
	visible := map[string]bool{}
	if cols, ok := view["columns"].([]any); ok {
		for _, c := range cols {
			if s, ok := c.(string); ok {
				visible[s] = true
			}
		}
	}
	for _, id := range tableColumnIDs(n.Data) {
		if !visible[id] {
			continue
		}
		d, _ := defs[id].(map[string]any)
		col := tableColumn{id: id}
		col.title, _ = d["title"].(string)
		col.align, _ = d["textAlignment"].(string)
		col.typ, _ = d["type"].(string)
		t.cols = append(t.cols, col)
	}
	frags := map[string][]Node{}
	for _, f := range n.Fragments {
		frags[f.Fragment] = f.Nodes
	}
	recs, _ := n.Data["records"].(map[string]any)
	for _, rid := range tableRecordIDs(n.Data) {
		r, _ := recs[rid].(map[string]any)
		values, _ := r["values"].(map[string]any)
		row := make([]tableCell, len(t.cols))
		for i, col := range t.cols {
			v := values[col.id]
			if s, ok := v.(string); ok && col.typ == "text" {
				row[i].blocks = frags[s]
				continue
			}
			row[i].value = v
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// buildTable makes a grid table block whose cells are text fragments.
// Ids are derived from positions: columns c1…, records r1…, cells r1c1….
func buildTable(cols []tableColumn, rows [][][]Node) Node {
	defs := make(map[string]any, len(cols))
	order := make([]any, len(cols))
	ids := make([]string, len(cols))
	for i, c := range cols {
		id := "c" + strconv.Itoa(i+1)
		ids[i] = id
		order[i] = id
		align := c.align
		if align == "" {
			align = "left"
		}
		defs[id] = map[string]any{"id": id, "title": c.title, "type": "text", "textAlignment": align}
	}
	recs := make(map[string]any, len(rows))
	frags := make([]Node, 0, len(rows)*len(cols))
	for r, row := range rows {
		rid := "r" + strconv.Itoa(r+1)
		values := make(map[string]any, len(cols))
		for c, id := range ids {
			name := rid + id
			values[id] = name
			var blocks []Node
			if c < len(row) {
				blocks = row[c]
			}
			if len(blocks) == 0 {
				blocks = []Node{Block(TypeParagraph, nil)}
			}
			frags = append(frags, Node{Object: ObjectFragment, Fragment: name, Nodes: blocks})
		}
		recs[rid] = map[string]any{"orderIndex": fmt.Sprintf("a%05d", r), "values": values}
	}
	view := map[string]any{"type": "grid", "columns": order, "hideHeader": false}
	return Node{Object: ObjectBlock, Type: TypeTable,
		Data:      map[string]any{"view": view, "records": recs, "definition": defs},
		Fragments: frags}
}
