package sqlstore

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"quire/internal/quire"
)

// Lists are paged by keyset, never by offset: a page's cursor holds the
// sort keys of its last item and the next page starts strictly after them,
// so every page costs one index range scan however deep it is.

// filter collects the conditions and arguments of a WHERE clause.
type filter struct {
	conds []string
	args  []any
}

// add appends a condition and its arguments.
func (f *filter) add(cond string, args ...any) {
	f.conds = append(f.conds, cond)
	f.args = append(f.args, args...)
}

// where renders the conditions as a WHERE clause ("" when there are none).
func (f *filter) where() string {
	if len(f.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(f.conds, " AND ")
}

// seek keeps the rows strictly after (key, id) in the sort order: for an
// ascending order key >= k AND (key > k OR id > i). The leading inequality
// on the first sort column lets both engines start an index range scan at
// the cursor; the rest only trims the ties.
func (f *filter) seek(col, idCol string, desc bool, key, id any) {
	op := ">"
	if desc {
		op = "<"
	}
	f.add(fmt.Sprintf("%[1]s %[3]s= ? AND (%[1]s %[3]s ? OR %[2]s %[3]s ?)", col, idCol, op), key, key, id)
}

// seekID keeps the rows strictly after id, for lists sorted by id alone.
func (f *filter) seekID(idCol string, desc bool, id any) {
	op := ">"
	if desc {
		op = "<"
	}
	f.add(fmt.Sprintf("%s %s ?", idCol, op), id)
}

// direction renders a sort direction.
func direction(desc bool) string {
	if desc {
		return "DESC"
	}
	return "ASC"
}

// newList assembles a page: next is the cursor of the last item, used only
// when more items follow.
func newList[T any](items []T, more bool, count int, next func(last T) string) *quire.List[T] {
	l := &quire.List[T]{Items: items, Count: count}
	if more && len(items) > 0 {
		l.Next = next(items[len(items)-1])
	}
	return l
}

// containsPattern returns a LIKE pattern matching values that contain s,
// lower-cased, with LIKE's wildcards and the escape character escaped. Use
// it with ESCAPE '\' against a lower-cased column.
func containsPattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

// A cursor is the opaque Next value of a page: the base64url encoding of a
// JSON array holding a tag naming the list and sort it belongs to, then the
// sort-key values of the last item of the page. The tag keeps a cursor from
// one list from being read as another's.

// encodeCursor builds a cursor from a tag and the last item's sort keys.
func encodeCursor(tag string, keys ...any) string {
	b, err := json.Marshal(append([]any{tag}, keys...))
	if err != nil {
		// The keys are strings and integers, which always marshal.
		panic("sqlstore: encode cursor: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor made by encodeCursor with the same tag into
// dst, pointers to the sort keys in order. A cursor that does not decode,
// or was made for another list, is EINVALID.
func decodeCursor(cursor, tag string, dst ...any) error {
	bad := quire.Invalid("page", "invalid cursor")
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return bad
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil || len(parts) != len(dst)+1 {
		return bad
	}
	var got string
	if err := json.Unmarshal(parts[0], &got); err != nil || got != tag {
		return bad
	}
	for i, d := range dst {
		if err := json.Unmarshal(parts[i+1], d); err != nil {
			return bad
		}
	}
	return nil
}

// seekAfter narrows w to the items that follow the page's cursor in a
// keyset list ordered by (keyCol, idCol); the first page is left alone.
// K is the type of the sort key the cursor carries.
func seekAfter[K any](w *filter, p quire.Page, tag, keyCol, idCol string, desc bool) error {
	if p.Cursor == "" {
		return nil
	}
	var (
		key K
		id  string
	)
	if err := decodeCursor(p.Cursor, tag, &key, &id); err != nil {
		return err
	}
	w.seek(keyCol, idCol, desc, key, id)
	return nil
}
