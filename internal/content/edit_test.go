package content

import (
	"context"
	"fmt"
	"testing"

	"quire/internal/quire"
)

func page(id, title, parent string) *quire.RevisionPage {
	return &quire.RevisionPage{ID: id, Type: quire.PageDocument, Title: title, Parent: parent}
}

func commit(t *testing.T, ctx context.Context, st Store, ed *Edit, id string, parents ...string) *quire.Revision {
	t.Helper()
	rev := ed.Revision(id, "s1", quire.RevisionEdits, "u1", parents...)
	if err := ed.Commit(ctx, st, rev); err != nil {
		t.Fatal(err)
	}
	return rev
}

func TestEditTree(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := New()
	ed := e.Edit(st, &quire.Revision{ID: "r0"})
	zero := 0
	for _, p := range []*quire.RevisionPage{page("a", "Getting Started", ""), page("b", "Guides", ""), page("c", "Install", "a"), page("d", "Install", "a")} {
		if err := ed.InsertPage(ctx, p, []byte(`{"object":"document","nodes":[]}`), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := ed.InsertPage(ctx, page("e", "First", ""), nil, &zero); err != nil {
		t.Fatal(err)
	}
	rev := commit(t, ctx, st, ed, "r1", "r0")
	s := e.Snapshot(st, rev)
	tree, err := s.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	var walk func(ns []*TreeNode)
	walk = func(ns []*TreeNode) {
		for _, n := range ns {
			got += n.Path + ";"
			walk(n.Children)
		}
	}
	walk(tree)
	if want := "first;getting-started;getting-started/install;getting-started/install-1;guides;"; got != want {
		t.Fatalf("tree paths %q, want %q", got, want)
	}
	p, err := s.PageByPath(ctx, "getting-started/install-1")
	if err != nil || p.ID != "d" {
		t.Fatalf("PageByPath: %v %v", p, err)
	}

	// Rename keeps the place; move re-parents; delete drops the subtree.
	ed = e.Edit(st, rev)
	if _, err := ed.UpdatePage(ctx, "a", func(p *quire.RevisionPage) error { p.Slug = "start"; return nil }, nil, Move{}); err != nil {
		t.Fatal(err)
	}
	into := "b"
	if _, err := ed.UpdatePage(ctx, "c", nil, nil, Move{Parent: &into}); err != nil {
		t.Fatal(err)
	}
	self := "c"
	if _, err := ed.UpdatePage(ctx, "b", nil, nil, Move{Parent: &self}); quire.ErrorCode(err) != quire.EINVALID {
		t.Fatalf("moving a page under its child: %v, want invalid", err)
	}
	if err := ed.DeletePage(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	rev2 := commit(t, ctx, st, ed, "r2", "r1")
	s2 := e.Snapshot(st, rev2)
	pages, err := s2.Pages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 3 {
		t.Fatalf("after delete: %d pages, want 3 (b, c, e)", len(pages))
	}
	if p, err := s2.PageByPath(ctx, "guides/install"); err != nil || p.ID != "c" {
		t.Fatalf("moved page by path: %v %v", p, err)
	}
	if _, err := s2.Page(ctx, "d"); !quire.IsNotFound(err) {
		t.Fatalf("child of deleted page still there: %v", err)
	}
	// The old revision is untouched.
	if p, err := s.PageByPath(ctx, "getting-started/install"); err != nil || p.ID != "c" {
		t.Fatalf("old revision changed: %v %v", p, err)
	}
}

// TestEditStorageFollowsChange checks that editing one page's document
// stores about the same number of objects in a space of 10,000 pages as
// in one of 100.
func TestEditStorageFollowsChange(t *testing.T) {
	ctx := context.Background()
	stored := func(n int) (objects, bytes int) {
		st := newMemStore()
		e := New()
		ed := e.Edit(st, &quire.Revision{ID: "r0"})
		for i := 0; i < n; i++ {
			p := page(fmt.Sprintf("p%05d", i), fmt.Sprintf("Page %d", i), "")
			p.Position = quire.KeyBetween("", "")
			if err := ed.insertForTest(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		base := commit(t, ctx, st, ed, "r1")
		before := len(st.m)
		size := 0
		for _, b := range st.m {
			size -= len(b)
		}
		ed = e.Edit(st, base)
		if _, err := ed.UpdatePage(ctx, "p00042", nil, []byte(`{"object":"document","nodes":[{"object":"block","type":"paragraph"}]}`), Move{}); err != nil {
			t.Fatal(err)
		}
		commit(t, ctx, st, ed, "r2", "r1")
		for _, b := range st.m {
			size += len(b)
		}
		return len(st.m) - before, size
	}
	smallN, smallB := stored(100)
	largeN, largeB := stored(10000)
	t.Logf("one edit stored %d objects (%d bytes) with 100 pages, %d objects (%d bytes) with 10,000", smallN, smallB, largeN, largeB)
	if largeN > smallN+3 || largeB > 4*smallB+4096 {
		t.Fatalf("storage grows with the space: %d objects/%d bytes vs %d/%d", largeN, largeB, smallN, smallB)
	}
}
