package dump

import (
	"fmt"
	"slices"
)

// loadOrder returns tables ordered so that every table comes after the
// tables it refers to, ties by name. Tables in a cycle of references
// (there are none in Quire's schema) come last, by name; the load then
// relies on the engine deferring its checks.
func loadOrder(tables []Table) []Table {
	byName := make(map[string]*Table, len(tables))
	for i := range tables {
		byName[tables[i].Name] = &tables[i]
	}
	waiting := make(map[string]int, len(tables))
	users := map[string][]string{}
	for _, t := range tables {
		for _, r := range t.Refs {
			if _, ok := byName[r]; ok && r != t.Name {
				waiting[t.Name]++
				users[r] = append(users[r], t.Name)
			}
		}
	}
	var ready, out []string
	for _, t := range tables {
		if waiting[t.Name] == 0 {
			ready = append(ready, t.Name)
		}
	}
	done := map[string]bool{}
	for len(ready) > 0 {
		slices.Sort(ready)
		name := ready[0]
		ready = ready[1:]
		out = append(out, name)
		done[name] = true
		for _, u := range users[name] {
			if waiting[u]--; waiting[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	var rest []string
	for _, t := range tables {
		if !done[t.Name] {
			rest = append(rest, t.Name)
		}
	}
	slices.Sort(rest)
	ordered := make([]Table, 0, len(tables))
	for _, name := range append(out, rest...) {
		ordered = append(ordered, *byName[name])
	}
	return ordered
}

// parentsFirst orders the rows of a table whose foreign keys refer to the
// table itself so that a row comes after the rows it refers to: row[i]
// holds the values of cols. A cycle among rows (which a foreign key
// forbids) keeps the order it was read in.
func parentsFirst(rows [][]any, cols []Column, refs []SelfRef) ([][]any, error) {
	index := func(name string) int {
		return slices.IndexFunc(cols, func(c Column) bool { return c.Name == name })
	}
	type link struct{ col, ref int }
	var links []link
	for _, r := range refs {
		c, p := index(r.Column), index(r.Ref)
		if c < 0 || p < 0 {
			return nil, fmt.Errorf("foreign key %s → %s names a column not carried", r.Column, r.Ref)
		}
		links = append(links, link{c, p})
	}
	// byRef maps each referenced column to the row holding a value.
	byRef := make([]map[any]int, len(links))
	for li, l := range links {
		byRef[li] = make(map[any]int, len(rows))
		for i, row := range rows {
			if v := row[l.ref]; v != nil {
				byRef[li][mapKey(v)] = i
			}
		}
	}
	out := make([][]any, 0, len(rows))
	state := make([]byte, len(rows)) // 0 new, 1 in progress, 2 placed
	var place func(i int)
	place = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for li, l := range links {
			if v := rows[i][l.col]; v != nil {
				if p, ok := byRef[li][mapKey(v)]; ok {
					place(p)
				}
			}
		}
		state[i] = 2
		out = append(out, rows[i])
	}
	for i := range rows {
		place(i)
	}
	return out, nil
}

// mapKey makes a neutral value usable as a map key: bytes as a string.
func mapKey(v any) any {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}
