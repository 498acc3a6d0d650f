package storetest

import (
	"reflect"
	"testing"

	"quire/internal/quire"
)

// must fails the test now on an unexpected error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// wantCode checks that err is a *quire.Error with the code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if _, ok := err.(*quire.Error); !ok {
		t.Fatalf("got %T %v, want a *quire.Error with code %s", err, err, code)
	}
	if got := quire.ErrorCode(err); got != code {
		t.Fatalf("got code %s (%v), want %s", got, err, code)
	}
}

// equal checks that got deeply equals want.
func equal[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got  %+v\n want %+v", what, got, want)
	}
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// ids returns the ids of a list of items.
func ids[T any](items []T, id func(T) string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, id(it))
	}
	return out
}

// collect reads a list to its end in pages of size, checking on the way
// that every page reports the same count (or none, Uncounted), that only the last page has no
// next cursor, and that pages are full until the last.
func collect[T any](t *testing.T, size int, page func(p quire.Page) (*quire.List[T], error)) (items []T, count int) {
	t.Helper()
	cursor := ""
	for i := 0; ; i++ {
		l, err := page(quire.Page{Cursor: cursor, Limit: size})
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		if i == 0 {
			count = l.Count
		} else if l.Count != count {
			t.Fatalf("page %d: count %d, first page said %d", i, l.Count, count)
		}
		items = append(items, l.Items...)
		if l.Next == "" {
			break
		}
		if len(l.Items) != size {
			t.Fatalf("page %d: %d items with a next cursor, want %d", i, len(l.Items), size)
		}
		if i > 1000 {
			t.Fatal("paging does not end")
		}
		cursor = l.Next
	}
	if count != quire.Uncounted && len(items) != count {
		t.Fatalf("read %d items over all pages, count says %d", len(items), count)
	}
	return items, count
}
