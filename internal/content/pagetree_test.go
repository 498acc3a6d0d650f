package content

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"quire/internal/quire"
)

// revisionOf commits pages into a new revision of e and returns it.
func revisionOf(t *testing.T, ctx context.Context, e *Engine, st Store, id string, base *quire.Revision, pages ...*quire.RevisionPage) *quire.Revision {
	t.Helper()
	ed := e.Edit(st, base)
	for _, p := range pages {
		if err := ed.InsertPage(ctx, p, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	return commit(t, ctx, st, ed, id, base.ID)
}

func TestSharedTreeIndexesAndIsShared(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := New()
	g := page("g", "Guides", "")
	g.Git = &quire.GitBlob{Path: "guides/README.md"}
	rev := revisionOf(t, ctx, e, st, "r1", &quire.Revision{ID: "r0"},
		page("a", "Start", ""), g, page("c", "Install", "g"), page("d", "Deep", "c"))

	tree, err := e.Snapshot(st, rev).SharedTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Len() != 4 || len(tree.Nodes) != 2 {
		t.Fatalf("tree of %d pages, %d at the top; want 4 and 2", tree.Len(), len(tree.Nodes))
	}
	if n := tree.AtPath("guides/install/deep"); n == nil || n.Page.ID != "d" {
		t.Fatalf("AtPath found %v, want page d", n)
	}
	if p := tree.Parent("d"); p == nil || p.Page.ID != "c" {
		t.Fatalf("Parent of d is %v, want c", p)
	}
	if p := tree.Parent("a"); p != nil {
		t.Fatalf("a top-level page has the parent %v", p.Page.ID)
	}
	if n := tree.AtGitPath("guides/README.md"); n == nil || n.Page.ID != "g" {
		t.Fatalf("AtGitPath found %v, want page g", n)
	}
	if tree.Node("nope") != nil || tree.AtPath("nope") != nil {
		t.Fatal("an unknown id or path found a page")
	}

	// A second read, through another snapshot of the same revision, is
	// the same tree.
	again, err := e.Snapshot(st, rev).SharedTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again != tree {
		t.Fatal("the second read built the tree again")
	}

	// A later revision has its own tree; the first is unchanged.
	rev2 := revisionOf(t, ctx, e, st, "r2", rev, page("e", "End", ""))
	later, err := e.Snapshot(st, rev2).SharedTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if later.Len() != 5 || tree.Len() != 4 || later.AtPath("end") == nil || tree.AtPath("end") != nil {
		t.Fatalf("after an edit: later tree %d pages, earlier %d", later.Len(), tree.Len())
	}
	// The pages the edit left alone were not decoded again.
	if later.Node("a").Page != tree.Node("a").Page || later.Node("d").Page != tree.Node("d").Page {
		t.Fatal("the later tree decoded the unchanged pages again")
	}
}

func TestSharedTreeCacheKeepsWithinItsLimit(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := New(WithTreePages(5))
	var revs []*quire.Revision
	base := &quire.Revision{ID: "r0"}
	for i := range 3 {
		base = revisionOf(t, ctx, e, st, fmt.Sprintf("r%d", i+1), base, page(fmt.Sprintf("p%d", i), fmt.Sprintf("Page %d", i), ""))
		revs = append(revs, base)
	}
	// Trees of 1, 2 and 3 pages: the third makes 6, over the limit of 5,
	// so the oldest goes.
	first := make([]*PageTree, 3)
	for i, rev := range revs {
		tr, err := e.Snapshot(st, rev).SharedTree(ctx)
		if err != nil {
			t.Fatal(err)
		}
		first[i] = tr
	}
	if e.trees.pages > 5 {
		t.Fatalf("the cache holds %d pages, over its limit of 5", e.trees.pages)
	}
	// Newest first: reading the evicted one again evicts in turn.
	for i := 2; i >= 0; i-- {
		want := i > 0
		tr, _ := e.Snapshot(st, revs[i]).SharedTree(ctx)
		if kept := tr == first[i]; kept != want {
			t.Errorf("tree of revision %d kept: %v, want %v", i+1, kept, want)
		}
	}

	// A tree larger than the whole cache is built for each read.
	big := revisionOf(t, ctx, e, st, "big", revs[2], page("x", "X", ""), page("y", "Y", ""), page("z", "Z", ""))
	a, _ := e.Snapshot(st, big).SharedTree(ctx)
	b, _ := e.Snapshot(st, big).SharedTree(ctx)
	if a == b || a.Len() != 6 {
		t.Fatalf("a tree of %d pages over the limit was kept", a.Len())
	}
}

func TestSharedTreeConcurrentReadsAgree(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := New()
	rev := revisionOf(t, ctx, e, st, "r1", &quire.Revision{ID: "r0"}, page("a", "A", ""), page("b", "B", "a"))
	var wg sync.WaitGroup
	got := make([]*PageTree, 8)
	for i := range got {
		wg.Go(func() {
			tr, err := e.Snapshot(st, rev).SharedTree(ctx)
			if err != nil {
				t.Error(err)
			}
			got[i] = tr
		})
	}
	wg.Wait()
	for _, tr := range got[1:] {
		if tr != got[0] {
			t.Fatal("concurrent first reads got different trees")
		}
	}
}

func TestSharedTreeWithinAnEditIsNotKept(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := New()
	rev := revisionOf(t, ctx, e, st, "r1", &quire.Revision{ID: "r0"}, page("a", "A", ""))
	ed := e.Edit(st, rev)
	if err := ed.InsertPage(ctx, page("b", "B", ""), nil, nil); err != nil {
		t.Fatal(err)
	}
	tr, err := ed.snap.SharedTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 2 {
		t.Fatalf("the edit's tree has %d pages, want 2", tr.Len())
	}
	if e.trees.trees.Len() != 0 {
		t.Fatal("a tree read within an edit was kept")
	}
}
