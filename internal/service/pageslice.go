package service

import (
	"encoding/base64"
	"sort"

	"quire/internal/quire"
)

// PageSlice pages through items already sorted by key, for lists that are
// read whole from content rather than from an indexed table. The cursor is
// the key of the last item returned, encoded.
func PageSlice[T any](items []T, p quire.Page, key func(T) string) (*quire.List[T], error) {
	start := 0
	if p.Cursor != "" {
		after, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		if err != nil {
			return nil, quire.Invalid("page", "invalid cursor")
		}
		start = sort.Search(len(items), func(i int) bool { return key(items[i]) > string(after) })
	}
	rest := items[start:]
	out := &quire.List[T]{Count: len(items), Items: rest}
	if len(rest) > p.Size() {
		out.Items = rest[:p.Size()]
		out.Next = base64.RawURLEncoding.EncodeToString([]byte(key(out.Items[len(out.Items)-1])))
	}
	if out.Items == nil {
		out.Items = []T{}
	}
	return out, nil
}
