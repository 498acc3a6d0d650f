package content

import (
	"context"
	"fmt"
	"testing"
	"time"

	"quire/internal/quire"
)

// startRevision returns an empty revision, or one holding only the page
// parent when it is not "".
func startRevision(t *testing.T, ctx context.Context, e *Engine, st Store, parent string) *quire.Revision {
	t.Helper()
	rev := &quire.Revision{ID: "r0"}
	if parent == "" {
		return rev
	}
	ed := e.Edit(st, rev)
	if err := ed.InsertPage(ctx, page(parent, "Parent", ""), nil, nil); err != nil {
		t.Fatal(err)
	}
	return commit(t, ctx, st, ed, "rp", rev.ID)
}

// appendCost appends n pages under parent ("" for the top level), one
// edit each, then returns the objects read by one more append.
func appendCost(t *testing.T, parent string, n int) int64 {
	t.Helper()
	ctx := context.Background()
	st := newMemStore()
	e := New()
	rev := startRevision(t, ctx, e, st, parent)
	for i := 0; i <= n; i++ {
		ed := e.Edit(st, rev)
		before := ed.snap.r.reads.Load()
		if err := ed.InsertPage(ctx, page(fmt.Sprintf("p%d", i), fmt.Sprintf("Page %d", i), parent), nil, nil); err != nil {
			t.Fatal(err)
		}
		if i == n {
			return ed.snap.r.reads.Load() - before
		}
		rev = commit(t, ctx, st, ed, fmt.Sprintf("r%d", i+1), rev.ID)
	}
	return 0
}

// TestAppendDoesNotReadSiblings checks that appending a page reads about
// as many objects under 400 siblings as under 10: the trie paths, not the
// siblings.
func TestAppendDoesNotReadSiblings(t *testing.T) {
	for _, parent := range []string{"", "parent"} {
		few, many := appendCost(t, parent, 10), appendCost(t, parent, 400)
		if many > few+8 {
			t.Errorf("parent %q: appending after 10 siblings reads %d objects, after 400 reads %d", parent, few, many)
		}
	}
}

// TestAppendMemoKeepsKeys checks that the positions of appended pages are
// the same whether or not the engine remembers the last position: the
// same edits give the same page map root on an engine that appends from
// its memo and on fresh engines that read the siblings every time.
func TestAppendMemoKeepsKeys(t *testing.T) {
	ctx := context.Background()
	clock := WithClock(func() time.Time { return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) })
	st := newMemStore()
	warm := New(clock)
	steps := []func(ed *Edit) error{}
	for i := 0; i < 30; i++ {
		id := fmt.Sprintf("p%d", i)
		parent := ""
		if i%3 != 0 {
			parent = fmt.Sprintf("p%d", i-i%3)
		}
		steps = append(steps, func(ed *Edit) error { return ed.InsertPage(ctx, page(id, "Page "+id, parent), nil, nil) })
		switch i {
		case 10: // remove the last child of p9
			steps = append(steps, func(ed *Edit) error { return ed.DeletePage(ctx, "p10") })
		case 20: // move the last top-level page under another
			to := "p3"
			steps = append(steps, func(ed *Edit) error {
				_, err := ed.UpdatePage(ctx, "p18", nil, nil, Move{Parent: &to})
				return err
			})
		case 25: // rename a last child, which relinks it
			steps = append(steps, func(ed *Edit) error {
				_, err := ed.UpdatePage(ctx, "p25", func(p *quire.RevisionPage) error { p.Title = "Renamed"; p.Slug = ""; return nil }, nil, Move{})
				return err
			})
		}
	}
	warmRev, coldRev := &quire.Revision{ID: "r0"}, &quire.Revision{ID: "r0"}
	for i, step := range steps {
		ed := warm.Edit(st, warmRev)
		if err := step(ed); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		warmRev = commit(t, ctx, st, ed, fmt.Sprintf("w%d", i), warmRev.ID)
		ed = New(clock).Edit(st, coldRev)
		if err := step(ed); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		coldRev = commit(t, ctx, st, ed, fmt.Sprintf("c%d", i), coldRev.ID)
		if warmRev.Pages != coldRev.Pages || warmRev.Slugs != coldRev.Slugs {
			t.Fatalf("step %d: the remembered positions gave another page map", i)
		}
	}
}

// writeCounter counts the objects a store is given to write.
type writeCounter struct {
	*memRevisions
	objects, bytes, largest int
}

func (s *writeCounter) PutObjects(ctx context.Context, objs map[string][]byte) error {
	for _, b := range objs {
		s.objects++
		s.bytes += len(b)
		s.largest = max(s.largest, len(b))
	}
	return s.memRevisions.PutObjects(ctx, objs)
}

// appendWrites appends n pages under parent ("" for the top level), batch
// to an edit, then returns the counts of what the next edit of batch
// appends stores and the bytes that edit encoded.
func appendWrites(t *testing.T, parent string, n, batch int) (w writeCounter, encoded int64) {
	t.Helper()
	ctx := context.Background()
	st := &writeCounter{memRevisions: newMemStore()}
	e := New(WithClock(func() time.Time { return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) }))
	rev := startRevision(t, ctx, e, st, parent)
	for i := 0; i < n+batch; i += batch {
		ed := e.Edit(st, rev)
		for j := i; j < i+batch; j++ {
			if err := ed.InsertPage(ctx, page(fmt.Sprintf("p%d", j), fmt.Sprintf("Page %d", j), parent), nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		st.objects, st.bytes, st.largest = 0, 0, 0
		rev = commit(t, ctx, st, ed, fmt.Sprintf("r%d", i+1), rev.ID)
		if i >= n {
			return *st, ed.snap.r.puts
		}
	}
	return *st, 0
}

// TestAppendStoresNoSiblingList checks that appending a page stores the
// page and the trie paths above it, not an object listing its siblings:
// under 3,000 siblings no object stored is much larger than under 30, and
// the bytes stored grow by at most a full node for each of the two levels
// the page and children tries gain (an object listing the 3,000 siblings
// alone would take some 60,000 bytes).
func TestAppendStoresNoSiblingList(t *testing.T) {
	for _, parent := range []string{"", "parent"} {
		few, _ := appendWrites(t, parent, 30, 1)
		many, _ := appendWrites(t, parent, 3000, 1)
		t.Logf("parent %q: 30 siblings: %d objects, %d bytes, largest %d; 3,000: %d objects, %d bytes, largest %d",
			parent, few.objects, few.bytes, few.largest, many.objects, many.bytes, many.largest)
		if many.largest > few.largest+few.largest/4 {
			t.Errorf("parent %q: the largest object an append stores is %d bytes under 30 siblings, %d under 3,000", parent, few.largest, many.largest)
		}
		if many.bytes > few.bytes+4*many.largest || many.objects > few.objects+4 {
			t.Errorf("parent %q: an append stores %d objects (%d bytes) under 30 siblings, %d (%d bytes) under 3,000",
				parent, few.objects, few.bytes, many.objects, many.bytes)
		}
	}
}

// TestEditEncodesStoredNodesOnce checks that an edit appending many top-level
// pages encodes each trie node it stores once, and none it replaces: the
// bytes it encodes are the bytes it stores.
func TestEditEncodesStoredNodesOnce(t *testing.T) {
	w, encoded := appendWrites(t, "", 1000, 50)
	if encoded != int64(w.bytes) {
		t.Fatalf("50 appends to 1,000 pages encoded %d bytes and stored %d", encoded, w.bytes)
	}
}

// TestAppendsInTurnReadNoSiblings checks that appends under several
// parents in turn, each edit appending under some of them, read no
// siblings once every parent had one append: the memo carries the last
// position under the parents an edit leaves alone to the page map it
// makes.
func TestAppendsInTurnReadNoSiblings(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := New()
	rev := &quire.Revision{ID: "r0"}
	const parents, batch = 20, 10
	ed := e.Edit(st, rev)
	for i := 0; i < parents; i++ {
		if err := ed.InsertPage(ctx, page(fmt.Sprintf("s%d", i), fmt.Sprintf("Section %d", i), ""), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	rev = commit(t, ctx, st, ed, "rs", rev.ID)
	var reads int64
	for i := 0; i < 60*parents; i += batch {
		ed := e.Edit(st, rev)
		before := ed.snap.r.reads.Load()
		for j := i; j < i+batch; j++ {
			p := page(fmt.Sprintf("p%d", j), fmt.Sprintf("Page %d", j), fmt.Sprintf("s%d", j%parents))
			if err := ed.InsertPage(ctx, p, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		reads = ed.snap.r.reads.Load() - before
		rev = commit(t, ctx, st, ed, fmt.Sprintf("r%d", i), rev.ID)
	}
	// Reading the siblings would read some 60 page objects per append.
	if reads > 30*batch {
		t.Fatalf("the last %d appends under %d parents in turn read %d objects", batch, parents, reads)
	}
}
