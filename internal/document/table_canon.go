package document

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// canonicalTable renames a table's column, record and fragment ids after
// their positions, so that equal tables compare equal whatever ids they
// were given.
func canonicalTable(n Node) Node {
	colIDs := tableColumnIDs(n.Data)
	colName := make(map[string]string, len(colIDs))
	for i, id := range colIDs {
		colName[id] = "c" + strconv.Itoa(i+1)
	}
	defs, _ := n.Data["definition"].(map[string]any)
	textCol := map[string]bool{}
	newDefs := make(map[string]any, len(defs))
	for id, d := range defs {
		dm, ok := d.(map[string]any)
		if !ok {
			newDefs[colName[id]] = d
			continue
		}
		dm = maps.Clone(dm)
		dm["id"] = colName[id]
		if dm["type"] == "text" {
			textCol[id] = true
		}
		newDefs[colName[id]] = dm
	}
	fragName := map[string]string{}
	recs, _ := n.Data["records"].(map[string]any)
	newRecs := make(map[string]any, len(recs))
	for i, rid := range tableRecordIDs(n.Data) {
		name := "r" + strconv.Itoa(i+1)
		r, _ := recs[rid].(map[string]any)
		values, _ := r["values"].(map[string]any)
		newValues := make(map[string]any, len(values))
		for cid, v := range values {
			if s, ok := v.(string); ok && textCol[cid] {
				fragName[s] = name + colName[cid]
				v = fragName[s]
			}
			newValues[renamed(colName, cid)] = v
		}
		newRecs[name] = map[string]any{"orderIndex": fmt.Sprintf("a%05d", i), "values": newValues}
	}
	data := maps.Clone(n.Data)
	data["definition"] = newDefs
	data["records"] = newRecs
	if view, ok := n.Data["view"].(map[string]any); ok {
		data["view"] = canonicalView(view, colName)
	}
	out := n
	out.Data = data
	out.Fragments = nil
	for _, f := range n.Fragments {
		name, used := fragName[f.Fragment]
		if !used {
			continue
		}
		f.Fragment = name
		f.Key = ""
		out.Fragments = append(out.Fragments, f)
	}
	sortFragments(out.Fragments)
	return out
}

func renamed(names map[string]string, id string) string {
	if s, ok := names[id]; ok {
		return s
	}
	return id
}

func canonicalView(view map[string]any, colName map[string]string) map[string]any {
	v := maps.Clone(view)
	if cols, ok := view["columns"].([]any); ok {
		nc := make([]any, len(cols))
		for i, c := range cols {
			s, _ := c.(string)
			nc[i] = renamed(colName, s)
		}
		v["columns"] = nc
	}
	if widths, ok := view["columnWidths"].(map[string]any); ok {
		nw := make(map[string]any, len(widths))
		for k, w := range widths {
			nw[renamed(colName, k)] = w
		}
		v["columnWidths"] = nw
	}
	for _, k := range []string{"targetDefinition", "coverDefinition", "coverDefinitionDark"} {
		if s, ok := view[k].(string); ok {
			v[k] = renamed(colName, s)
		}
	}
	return v
}

// sortFragments orders cell fragments named r<row>c<col> numerically.
func sortFragments(frags []Node) {
	slices.SortStableFunc(frags, func(a, b Node) int {
		ra, ca := cellPos(a.Fragment)
		rb, cb := cellPos(b.Fragment)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(ca, cb))
	})
}

func cellPos(name string) (int, int) {
	var r, c int
	fmt.Sscanf(name, "r%dc%d", &r, &c)
	return r, c
}
