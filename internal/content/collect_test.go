package content

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"quire/internal/quire"
)

// rootsOf gathers the map roots of revisions.
func rootsOf(revs ...*quire.Revision) quire.ContentRoots {
	var r quire.ContentRoots
	for _, rev := range revs {
		r.Pages = append(r.Pages, rev.Pages)
		r.Slugs = append(r.Slugs, rev.Slugs)
		r.Files = append(r.Files, rev.Files)
	}
	return r
}

// TestLiveMarksExactlyWhatRevisionsReach checks the mark of a collection:
// every object stored by commits is reached from their revisions; an
// object only an older revision reaches is not reached from the newer one;
// the objects reached from a revision are all a fresh engine needs to read
// it whole; and a missing object it must read fails the mark.
func TestLiveMarksExactlyWhatRevisionsReach(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := New()
	ed := e.Edit(st, &quire.Revision{ID: "r0"})
	doc := func(s string) []byte {
		return []byte(`{"object":"document","nodes":[` + mpara("k", s) + `]}`)
	}
	for i := range 60 {
		parent := ""
		if i >= 50 {
			parent = "p0"
		}
		id := fmt.Sprintf("p%d", i)
		if err := ed.InsertPage(ctx, page(id, "Page "+id, parent), doc("text of "+id), nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		if err := ed.PutFile(ctx, &quire.File{ID: fmt.Sprintf("f%d", i), Name: "file", Blob: fmt.Sprintf("blob%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	r1 := commit(t, ctx, st, ed, "r1", "r0")
	s1 := e.Snapshot(st, r1)
	gone, err := s1.Page(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}

	ed = e.Edit(st, r1)
	if err := ed.DeletePage(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	if err := ed.DeleteFile(ctx, "f1"); err != nil {
		t.Fatal(err)
	}
	r2 := commit(t, ctx, st, ed, "r2", "r1")

	both, err := Live(ctx, st, rootsOf(r1, r2))
	if err != nil {
		t.Fatal(err)
	}
	stored := slices.Sorted(maps.Keys(st.m))
	if got := slices.Sorted(maps.Keys(both)); !slices.Equal(got, stored) {
		t.Fatalf("marked %d objects, stored %d: the mark must reach every object the commits stored", len(got), len(stored))
	}
	newer, err := Live(ctx, st, rootsOf(r2))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := newer[gone.Document]; ok || gone.Document == "" {
		t.Fatalf("the document of a page deleted in r2 (%q) is marked from r2", gone.Document)
	}
	if len(newer) >= len(both) {
		t.Fatalf("r2 alone reaches %d objects, both %d", len(newer), len(both))
	}

	// r2 reads whole from its marked objects alone, on a fresh cache.
	kept := newMemObjects()
	for k := range newer {
		kept.m[k] = st.m[k]
	}
	s2 := New().Snapshot(&memRevisions{memObjects: kept, revs: map[string]*quire.Revision{}}, r2)
	pages, err := s2.Pages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 59 {
		t.Fatalf("r2 has %d pages, want 59", len(pages))
	}
	for _, p := range pages {
		if _, err := s2.Document(ctx, p); err != nil {
			t.Fatalf("document of %s: %v", p.ID, err)
		}
		if _, err := s2.Path(ctx, p); err != nil {
			t.Fatalf("path of %s: %v", p.ID, err)
		}
	}
	if kids, err := s2.Children(ctx, "p0"); err != nil || len(kids) != 10 {
		t.Fatalf("children of p0: %d %v", len(kids), err)
	}
	if files, err := s2.Files(ctx); err != nil || len(files) != 2 {
		t.Fatalf("files of r2: %d %v", len(files), err)
	}

	pageKey, ok, err := s1.t.Get(ctx, r1.Pages, "p1")
	if err != nil || !ok {
		t.Fatalf("page object of p1: %v %v", ok, err)
	}
	delete(st.m, pageKey)
	if _, err := Live(ctx, st, rootsOf(r1)); err == nil {
		t.Fatal("a mark over a missing page object succeeded")
	}
}
