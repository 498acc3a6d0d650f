package content

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
)

// mergeSpace is a space for merge tests: a base revision and the store and
// engine to edit it.
type mergeSpace struct {
	ctx  context.Context
	st   *memRevisions
	e    *Engine
	base *quire.Revision
	n    int
}

// tickingClock returns a clock that moves one second per call.
func tickingClock() func() time.Time {
	var mu sync.Mutex
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

// newMergeSpace builds a base revision:
//
//	getting-started (a, document k1..k4)
//	  install (c)
//	guides (b)
//	reference (d)
func newMergeSpace(t testing.TB) *mergeSpace {
	t.Helper()
	s := &mergeSpace{ctx: context.Background(), st: newMemStore(), e: New(WithClock(tickingClock()))}
	ed := s.e.Edit(s.st, &quire.Revision{ID: "r0"})
	doc := mdoc(mpara("k1", "one"), mpara("k2", "two"), mpara("k3", "three"), mpara("k4", "four"))
	for _, p := range []*quire.RevisionPage{page("a", "Getting Started", ""), page("b", "Guides", ""), page("c", "Install", "a"), page("d", "Reference", "")} {
		var d []byte
		if p.ID == "a" {
			d = doc
		}
		if err := ed.InsertPage(s.ctx, p, d, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := ed.PutFile(s.ctx, &quire.File{ID: "f1", Name: "logo.png", Blob: "blob1"}); err != nil {
		t.Fatal(err)
	}
	s.base = s.commit(t, ed, "base")
	return s
}

// commit stores an edit as a revision.
func (s *mergeSpace) commit(t testing.TB, ed *Edit, id string) *quire.Revision {
	t.Helper()
	rev := ed.Revision(id, "s1", quire.RevisionEdits, "u1")
	if err := ed.Commit(s.ctx, s.st, rev); err != nil {
		t.Fatal(err)
	}
	return rev
}

// change edits the base revision and commits the result.
func (s *mergeSpace) change(t testing.TB, id string, fn func(ed *Edit) error) *quire.Revision {
	t.Helper()
	ed := s.e.Edit(s.st, s.base)
	if err := fn(ed); err != nil {
		t.Fatal(err)
	}
	return s.commit(t, ed, id)
}

// merge merges theirs into ours; with no conflicts it commits the result,
// checks the tree's invariants and returns its snapshot.
func (s *mergeSpace) merge(t testing.TB, ours, theirs *quire.Revision) (*Snapshot, []Conflict) {
	t.Helper()
	s.n++
	ed, conflicts, err := s.e.Merge(s.ctx, s.st, s.base, ours, theirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(conflicts) > 0 {
		if ed != nil {
			t.Fatal("merge returned both an edit and conflicts")
		}
		return nil, conflicts
	}
	rev := ed.Revision(fmt.Sprintf("merge%d", s.n), "s1", quire.RevisionMerge, "u1", ours.ID)
	if err := ed.Commit(s.ctx, s.st, rev); err != nil {
		t.Fatal(err)
	}
	// Read the result back through a fresh engine: everything it needs
	// must have been stored.
	snap := New().Snapshot(s.st, rev)
	checkTree(t, snap)
	return snap, nil
}

// checkTree checks a revision's invariants: every page is in its parent's
// children map under its slug, every children map entry is a page with
// that parent and slug, and every path leads back to its page.
func checkTree(t testing.TB, s *Snapshot) {
	t.Helper()
	ctx := context.Background()
	pages, err := s.Pages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*quire.RevisionPage{}
	for _, p := range pages {
		byID[p.ID] = p
	}
	entries := 0
	checkMap := func(parent, root string) {
		err := s.t.Walk(ctx, root, func(slug, id string) error {
			entries++
			p := byID[id]
			switch {
			case p == nil:
				t.Errorf("children map of %q names missing page %s", parent, id)
			case p.Parent != parent || p.Slug != slug:
				t.Errorf("children map of %q has %s as %q; the page says parent %q slug %q", parent, id, slug, p.Parent, p.Slug)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	checkMap("", s.Rev.Slugs)
	for _, p := range pages {
		if p.Parent != "" && byID[p.Parent] == nil {
			t.Errorf("page %s has missing parent %s", p.ID, p.Parent)
		}
		checkMap(p.ID, p.Children)
		path, err := s.Path(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if q, err := s.PageByPath(ctx, path); err != nil || q.ID != p.ID {
			t.Errorf("path %q of %s leads to %v (%v)", path, p.ID, q, err)
		}
	}
	if entries != len(pages) {
		t.Errorf("children maps hold %d entries for %d pages", entries, len(pages))
	}
}

// paths lists a revision's page paths in tree order.
func paths(t testing.TB, s *Snapshot) string {
	t.Helper()
	tree, err := s.Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func([]*TreeNode)
	walk = func(ns []*TreeNode) {
		for _, n := range ns {
			out = append(out, n.Path)
			walk(n.Children)
		}
	}
	walk(tree)
	return strings.Join(out, " ")
}

// mustPage returns a page of a snapshot.
func mustPage(t testing.TB, s *Snapshot, id string) *quire.RevisionPage {
	t.Helper()
	p, err := s.Page(context.Background(), id)
	if err != nil {
		t.Fatalf("page %s: %v", id, err)
	}
	return p
}

// docTexts returns a page's blocks as key=text.
func docTexts(t testing.TB, s *Snapshot, id string) string {
	t.Helper()
	b, err := s.Document(context.Background(), mustPage(t, s, id))
	if err != nil {
		t.Fatal(err)
	}
	return blockTexts(t, b)
}

// retitle returns an edit function changing a page's title.
func retitle(id, title string) func(*Edit) error {
	return func(ed *Edit) error {
		_, err := ed.UpdatePage(context.Background(), id, func(p *quire.RevisionPage) error { p.Title = title; return nil }, nil, Move{})
		return err
	}
}

// redoc returns an edit function replacing a page's document.
func redoc(id string, doc []byte) func(*Edit) error {
	return func(ed *Edit) error {
		_, err := ed.UpdatePage(context.Background(), id, nil, doc, Move{})
		return err
	}
}

// both chains edit functions.
func both(fns ...func(*Edit) error) func(*Edit) error {
	return func(ed *Edit) error {
		for _, fn := range fns {
			if err := fn(ed); err != nil {
				return err
			}
		}
		return nil
	}
}

// conflictList formats conflicts for comparison.
func conflictList(cs []Conflict) string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s/%s/%s/%s", c.Page, c.File, c.Field, c.Block))
	}
	return strings.Join(out, " ")
}

func TestMergeDifferentPages(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", retitle("b", "All Guides"))
	theirs := s.change(t, "theirs", both(retitle("d", "API Reference"),
		redoc("a", mdoc(mpara("k1", "one"), mpara("k2", "TWO"), mpara("k3", "three"), mpara("k4", "four")))))
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	if got := mustPage(t, snap, "b").Title; got != "All Guides" {
		t.Fatalf("main's title lost: %q", got)
	}
	if got := mustPage(t, snap, "d").Title; got != "API Reference" {
		t.Fatalf("change request's title lost: %q", got)
	}
	if got, want := docTexts(t, snap, "a"), "k1=one k2=TWO k3=three k4=four"; got != want {
		t.Fatalf("document %q, want %q", got, want)
	}
	if got, want := paths(t, snap), "getting-started getting-started/install guides reference"; got != want {
		t.Fatalf("paths %q, want %q", got, want)
	}
}

func TestMergeDifferentBlocksOfOnePage(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", redoc("a", mdoc(mpara("k1", "ONE"), mpara("k2", "two"), mpara("k3", "three"), mpara("k4", "four"))))
	theirs := s.change(t, "theirs", redoc("a", mdoc(mpara("k1", "one"), mpara("k2", "two"), mpara("k3", "THREE"), mpara("new", "five"), mpara("k4", "four"))))
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	if got, want := docTexts(t, snap, "a"), "k1=ONE k2=two k3=THREE new=five k4=four"; got != want {
		t.Fatalf("document %q, want %q", got, want)
	}
	// updatedAt is the later of the two sides'.
	if got, want := mustPage(t, snap, "a").UpdatedAt, theirs.CreatedAt; !got.Equal(want) {
		t.Fatalf("updatedAt %v, want the change request's %v", got, want)
	}
}

func TestMergeSameBlockConflict(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", both(retitle("b", "Main"),
		redoc("a", mdoc(mpara("k1", "one"), mpara("k2", "main's"), mpara("k3", "three"), mpara("k4", "four")))))
	theirs := s.change(t, "theirs", redoc("a", mdoc(mpara("k1", "one"), mpara("k2", "theirs"), mpara("k3", "three"), mpara("k4", "FOUR"))))
	_, conflicts := s.merge(t, ours, theirs)
	if len(conflicts) != 1 {
		t.Fatalf("conflicts %v, want one", conflicts)
	}
	if c := conflicts[0]; c.Page != "a" || c.Field != "document" || c.Block != "k2" || c.Reason == "" {
		t.Fatalf("conflict %+v, want page a, document, block k2", c)
	}
}

func TestMergeRenameAndEdit(t *testing.T) {
	s := newMergeSpace(t)
	newDoc := mdoc(mpara("k1", "one"), mpara("k2", "two"), mpara("k3", "three"), mpara("k4", "FOUR"))
	ours := s.change(t, "ours", redoc("a", newDoc))
	theirs := s.change(t, "theirs", func(ed *Edit) error {
		_, err := ed.UpdatePage(s.ctx, "a", func(p *quire.RevisionPage) error {
			p.Title, p.Slug = "Start Here", "start"
			return nil
		}, nil, Move{})
		return err
	})
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	a := mustPage(t, snap, "a")
	if a.Title != "Start Here" || a.Slug != "start" {
		t.Fatalf("rename lost: %+v", a)
	}
	if got := docTexts(t, snap, "a"); got != blockTexts(t, newDoc) {
		t.Fatalf("edit lost: %q", got)
	}
	if got, want := paths(t, snap), "start start/install guides reference"; got != want {
		t.Fatalf("paths %q, want %q", got, want)
	}
}

func TestMergeMoveAndEdit(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", retitle("c", "Installation"))
	into := "b"
	theirs := s.change(t, "theirs", func(ed *Edit) error {
		_, err := ed.UpdatePage(s.ctx, "c", nil, nil, Move{Parent: &into})
		return err
	})
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	c := mustPage(t, snap, "c")
	if c.Title != "Installation" || c.Parent != "b" {
		t.Fatalf("page %+v, want the new title under b", c)
	}
	if got, want := paths(t, snap), "getting-started guides guides/install reference"; got != want {
		t.Fatalf("paths %q, want %q", got, want)
	}
}

func TestMergeMoveOrderWithinParent(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", retitle("d", "Ref"))
	zero := 0
	theirs := s.change(t, "theirs", func(ed *Edit) error {
		_, err := ed.UpdatePage(s.ctx, "d", nil, nil, Move{At: &zero})
		return err
	})
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	if got, want := paths(t, snap), "reference getting-started getting-started/install guides"; got != want {
		t.Fatalf("paths %q, want %q", got, want)
	}
	if mustPage(t, snap, "d").Title != "Ref" {
		t.Fatal("main's title lost")
	}
}

func TestMergeDeleteAndEdit(t *testing.T) {
	s := newMergeSpace(t)
	deleteC := func(ed *Edit) error { return ed.DeletePage(s.ctx, "c") }

	// Deleted in the change request, edited in main.
	_, conflicts := s.merge(t, s.change(t, "o1", retitle("c", "Setup")), s.change(t, "t1", deleteC))
	if got := conflictList(conflicts); got != "c///" {
		t.Fatalf("conflicts %q (%v), want one on page c", got, conflicts)
	}
	// Edited in the change request, deleted in main.
	_, conflicts = s.merge(t, s.change(t, "o2", deleteC), s.change(t, "t2", retitle("c", "Setup")))
	if got := conflictList(conflicts); got != "c///" {
		t.Fatalf("conflicts %q (%v), want one on page c", got, conflicts)
	}
	// Deleted in the change request while main added a page under it.
	ours := s.change(t, "o3", func(ed *Edit) error { return ed.InsertPage(s.ctx, page("e", "Extra", "a"), nil, nil) })
	_, conflicts = s.merge(t, ours, s.change(t, "t3", func(ed *Edit) error { return ed.DeletePage(s.ctx, "a") }))
	if got := conflictList(conflicts); got != "a///" || !strings.Contains(conflicts[0].Reason, "e") {
		t.Fatalf("conflicts %q (%v), want one on page a naming e", got, conflicts)
	}
	// Deleted on both sides, and deleted on one side with other edits on
	// the other, merge.
	snap, conflicts := s.merge(t, s.change(t, "o4", both(deleteC, retitle("b", "G"))), s.change(t, "t4", deleteC))
	if conflicts != nil || paths(t, snap) != "getting-started guides reference" {
		t.Fatalf("both deleted: %v %q", conflicts, paths(t, snap))
	}
	snap, conflicts = s.merge(t, s.change(t, "o5", retitle("b", "G")), s.change(t, "t5", func(ed *Edit) error { return ed.DeletePage(s.ctx, "a") }))
	if conflicts != nil || paths(t, snap) != "guides reference" {
		t.Fatalf("subtree deleted: %v", conflicts)
	}
	if _, err := snap.Page(s.ctx, "c"); !quire.IsNotFound(err) {
		t.Fatalf("child of a deleted page remains: %v", err)
	}
}

func TestMergeDeleteAfterMovingAChildOut(t *testing.T) {
	s := newMergeSpace(t)
	into := "b"
	theirs := s.change(t, "theirs", func(ed *Edit) error {
		if _, err := ed.UpdatePage(s.ctx, "c", nil, nil, Move{Parent: &into}); err != nil {
			return err
		}
		return ed.DeletePage(s.ctx, "a")
	})
	snap, conflicts := s.merge(t, s.change(t, "ours", retitle("d", "Ref")), theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	if got, want := paths(t, snap), "guides guides/install reference"; got != want {
		t.Fatalf("paths %q, want %q", got, want)
	}
}

func TestMergeInsertsOnBothSides(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", func(ed *Edit) error { return ed.InsertPage(s.ctx, page("o", "Upgrade", "a"), nil, nil) })
	theirs := s.change(t, "theirs", func(ed *Edit) error {
		if err := ed.InsertPage(s.ctx, page("t", "Configure", "a"), mdoc(mpara("x", "new")), nil); err != nil {
			return err
		}
		return ed.InsertPage(s.ctx, page("t2", "Options", "t"), nil, nil)
	})
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	got := paths(t, snap)
	for _, want := range []string{"getting-started/upgrade", "getting-started/configure", "getting-started/configure/options"} {
		if !strings.Contains(got, want) {
			t.Fatalf("paths %q lack %q", got, want)
		}
	}
	if docTexts(t, snap, "t") != "x=new" {
		t.Fatal("the new page's document is lost")
	}
	if p := mustPage(t, snap, "t"); p.Position != mustPage(t, New().Snapshot(s.st, theirs), "t").Position {
		t.Fatal("the new page's position changed")
	}
}

// TestMergeSameSlugOnBothSides checks the documented choice: main keeps
// its slug and the change request's page is suffixed.
func TestMergeSameSlugOnBothSides(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", func(ed *Edit) error { return ed.InsertPage(s.ctx, page("o", "Upgrade", "a"), nil, nil) })
	theirs := s.change(t, "theirs", func(ed *Edit) error {
		if err := ed.InsertPage(s.ctx, page("t", "Upgrade", "a"), nil, nil); err != nil {
			return err
		}
		// Its would-be suffix is taken by another of its pages.
		return ed.InsertPage(s.ctx, page("t1", "Upgrade 1", "a"), nil, nil)
	})
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	for id, want := range map[string]string{"o": "upgrade", "t": "upgrade-2", "t1": "upgrade-1"} {
		if got := mustPage(t, snap, id).Slug; got != want {
			t.Errorf("page %s slug %q, want %q", id, got, want)
		}
	}
	// A rename in the change request onto a slug main took is suffixed too.
	ours = s.change(t, "ours2", func(ed *Edit) error { return ed.InsertPage(s.ctx, page("o", "Handbook", ""), nil, nil) })
	theirs = s.change(t, "theirs2", func(ed *Edit) error {
		_, err := ed.UpdatePage(s.ctx, "b", func(p *quire.RevisionPage) error { p.Slug = "handbook"; return nil }, nil, Move{})
		return err
	})
	snap, conflicts = s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	if got := mustPage(t, snap, "b").Slug; got != "handbook-1" {
		t.Fatalf("renamed slug %q, want handbook-1", got)
	}
}

func TestMergeSlugSwap(t *testing.T) {
	s := newMergeSpace(t)
	theirs := s.change(t, "theirs", func(ed *Edit) error {
		for _, r := range [][2]string{{"b", "tmp"}, {"d", "guides"}, {"b", "reference"}} {
			if _, err := ed.UpdatePage(s.ctx, r[0], func(p *quire.RevisionPage) error { p.Slug = r[1]; return nil }, nil, Move{}); err != nil {
				return err
			}
		}
		return nil
	})
	snap, conflicts := s.merge(t, s.change(t, "ours", retitle("c", "Setup")), theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	if b, d := mustPage(t, snap, "b"), mustPage(t, snap, "d"); b.Slug != "reference" || d.Slug != "guides" {
		t.Fatalf("slugs b=%q d=%q, want swapped", b.Slug, d.Slug)
	}
}

func TestMergeFields(t *testing.T) {
	s := newMergeSpace(t)
	set := func(id string, fn func(*quire.RevisionPage)) func(*Edit) error {
		return func(ed *Edit) error {
			_, err := ed.UpdatePage(s.ctx, id, func(p *quire.RevisionPage) error { fn(p); return nil }, nil, Move{})
			return err
		}
	}
	// Different fields of one page merge; the same change on both is fine.
	ours := s.change(t, "o1", set("b", func(p *quire.RevisionPage) { p.Emoji = "📘"; p.Hidden = true }))
	theirs := s.change(t, "t1", set("b", func(p *quire.RevisionPage) {
		p.Description, p.Hidden = "All the guides", true
		p.Variables = map[string]string{"v": "1"}
	}))
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	b := mustPage(t, snap, "b")
	if b.Emoji != "📘" || b.Description != "All the guides" || !b.Hidden || b.Variables["v"] != "1" {
		t.Fatalf("merged page %+v", b)
	}
	// The same field changed differently is a conflict on that field,
	// one per field.
	ours = s.change(t, "o2", set("b", func(p *quire.RevisionPage) { p.Title, p.Emoji = "Main", "🅰" }))
	theirs = s.change(t, "t2", set("b", func(p *quire.RevisionPage) { p.Title, p.Emoji = "Theirs", "🅱" }))
	_, conflicts = s.merge(t, ours, theirs)
	if got, want := conflictList(conflicts), "b//emoji/ b//title/"; got != want {
		t.Fatalf("conflicts %q, want %q", got, want)
	}
	// Moves to different parents conflict on the parent.
	into1, into2 := "b", "d"
	move := func(into *string) func(*Edit) error {
		return func(ed *Edit) error { _, err := ed.UpdatePage(s.ctx, "c", nil, nil, Move{Parent: into}); return err }
	}
	_, conflicts = s.merge(t, s.change(t, "o3", move(&into1)), s.change(t, "t3", move(&into2)))
	if got, want := conflictList(conflicts), "c//parent/"; got != want {
		t.Fatalf("conflicts %q, want %q", got, want)
	}
}

func TestMergeMoveCycle(t *testing.T) {
	s := newMergeSpace(t)
	move := func(id, into string) func(*Edit) error {
		return func(ed *Edit) error { _, err := ed.UpdatePage(s.ctx, id, nil, nil, Move{Parent: &into}); return err }
	}
	_, conflicts := s.merge(t, s.change(t, "ours", move("b", "d")), s.change(t, "theirs", move("d", "b")))
	if got, want := conflictList(conflicts), "d//parent/"; got != want {
		t.Fatalf("conflicts %q, want %q", got, want)
	}
}

func TestMergeParentDeletedInMain(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", func(ed *Edit) error { return ed.DeletePage(s.ctx, "b") })
	theirs := s.change(t, "theirs", func(ed *Edit) error { return ed.InsertPage(s.ctx, page("n", "New", "b"), nil, nil) })
	_, conflicts := s.merge(t, ours, theirs)
	if got, want := conflictList(conflicts), "n//parent/"; got != want {
		t.Fatalf("conflicts %q (%v), want %q", got, conflicts, want)
	}
}

func TestMergeFiles(t *testing.T) {
	s := newMergeSpace(t)
	put := func(id, blob string) func(*Edit) error {
		return func(ed *Edit) error { return ed.PutFile(s.ctx, &quire.File{ID: id, Name: id, Blob: blob}) }
	}
	ours := s.change(t, "o1", both(put("f2", "b2"), retitle("b", "G")))
	theirs := s.change(t, "t1", both(put("f3", "b3"), func(ed *Edit) error { return ed.DeleteFile(s.ctx, "f1") }))
	snap, conflicts := s.merge(t, ours, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts: %v", conflicts)
	}
	files, err := snap.Files(s.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range files {
		ids = append(ids, f.ID)
	}
	if got := strings.Join(ids, " "); got != "f2 f3" {
		t.Fatalf("files %q, want f2 f3", got)
	}
	// Main changed no file: the change request's files are taken.
	snap, conflicts = s.merge(t, s.change(t, "o2", retitle("b", "G")), s.change(t, "t2", put("f4", "b4")))
	if conflicts != nil {
		t.Fatal(conflicts)
	}
	if _, err := snap.File(s.ctx, "f4"); err != nil {
		t.Fatal(err)
	}
	// One file changed differently on both sides.
	_, conflicts = s.merge(t, s.change(t, "o3", put("f1", "x")), s.change(t, "t3", put("f1", "y")))
	if len(conflicts) != 1 || conflicts[0].File != "f1" || conflicts[0].Page != "" {
		t.Fatalf("conflicts %v, want one on file f1", conflicts)
	}
}

func TestMergeOneSideUnchanged(t *testing.T) {
	s := newMergeSpace(t)
	theirs := s.change(t, "theirs", both(retitle("b", "G"), func(ed *Edit) error { return ed.DeletePage(s.ctx, "c") }))
	snap, conflicts := s.merge(t, s.base, theirs)
	if conflicts != nil || snap.Rev.Pages != theirs.Pages || snap.Rev.Slugs != theirs.Slugs || snap.Rev.Files != theirs.Files {
		t.Fatalf("main unchanged: %v, result differs from the change request", conflicts)
	}
	ours := s.change(t, "ours", retitle("b", "G"))
	ed, conflicts, err := s.e.Merge(s.ctx, s.st, s.base, ours, s.base)
	if err != nil || conflicts != nil || ed.Changed(ours) {
		t.Fatalf("empty change request: %v %v changed=%v", conflicts, err, ed != nil && ed.Changed(ours))
	}
}

func TestMergeReportsEveryConflict(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", both(
		retitle("b", "Main"),
		retitle("c", "Setup"),
		redoc("a", mdoc(mpara("k1", "main"), mpara("k2", "two"), mpara("k3", "main"), mpara("k4", "four"))),
		func(ed *Edit) error { return ed.PutFile(s.ctx, &quire.File{ID: "f1", Name: "x", Blob: "x"}) },
	))
	theirs := s.change(t, "theirs", both(
		retitle("b", "Theirs"),
		func(ed *Edit) error { return ed.DeletePage(s.ctx, "c") },
		redoc("a", mdoc(mpara("k1", "theirs"), mpara("k2", "TWO"), mpara("k3", "theirs"), mpara("k4", "four"))),
		retitle("d", "Fine"),
		func(ed *Edit) error { return ed.DeleteFile(s.ctx, "f1") },
	))
	ed, conflicts, err := s.e.Merge(s.ctx, s.st, s.base, ours, theirs)
	if err != nil || ed != nil {
		t.Fatalf("merge: edit %v, err %v", ed, err)
	}
	if got, want := conflictList(conflicts), "a//document/k1 a//document/k3 b//title/ c/// /f1//"; got != want {
		t.Fatalf("conflicts\n got %q\nwant %q", got, want)
	}
	for _, c := range conflicts {
		if c.Reason == "" || c.String() == "" {
			t.Fatalf("conflict without a reason: %+v", c)
		}
	}
}

// countingStore counts the objects read from a store.
type countingStore struct {
	*memRevisions
	objects int
}

func (c *countingStore) Objects(ctx context.Context, keys []string) (map[string][]byte, error) {
	c.objects += len(keys)
	return c.memRevisions.Objects(ctx, keys)
}

// bulkTrie builds the trie of a map at once; it is the trie Set builds one
// key at a time (TestBulkTrie).
func bulkTrie(tr trie, m map[string]string) string {
	type leaf struct {
		k, v string
		h    uint64
	}
	var build func(ls []leaf, depth int) string
	build = func(ls []leaf, depth int) string {
		n := &trieNode{}
		if depth == maxDepth {
			sort.Slice(ls, func(i, j int) bool { return ls[i].k < ls[j].k })
			for _, l := range ls {
				n.Entries = append(n.Entries, trieEntry{K: l.k, V: l.v})
			}
			return tr.store(n)
		}
		var groups [32][]leaf
		for _, l := range ls {
			s := slot(l.h, depth)
			groups[s] = append(groups[s], l)
		}
		for s, g := range groups {
			switch len(g) {
			case 0:
				continue
			case 1:
				n.Entries = append(n.Entries, trieEntry{K: g[0].k, V: g[0].v})
			default:
				n.Entries = append(n.Entries, trieEntry{C: build(g, depth+1)})
			}
			n.Bitmap |= 1 << s
		}
		return tr.store(n)
	}
	leaves := make([]leaf, 0, len(m))
	for k, v := range m {
		leaves = append(leaves, leaf{k, v, keyHash(k)})
	}
	if len(leaves) == 0 {
		return ""
	}
	return build(leaves, 0)
}

func TestBulkTrie(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{0, 1, 2, 40, 1000} {
		tr, _ := newTestTrie()
		m, root := map[string]string{}, ""
		for i := 0; i < n; i++ {
			k, v := fmt.Sprintf("key%d", i), fmt.Sprintf("v%d", i%7)
			m[k] = v
			var err error
			if root, err = tr.Set(ctx, root, k, v); err != nil {
				t.Fatal(err)
			}
		}
		if got, root := tr.seal(bulkTrie(tr, m)), tr.seal(root); got != root {
			t.Fatalf("%d keys: bulk root %q, Set root %q", n, got, root)
		}
	}
}

// bigMergeSpace builds n top-level pages; page 42 has a document. ours
// edits one block of it, theirs another block and its slug.
func bigMergeSpace(t testing.TB, n int) (st *memRevisions, base, ours, theirs *quire.Revision) {
	ctx := context.Background()
	st = newMemStore()
	e := New()
	ed := e.Edit(st, &quire.Revision{ID: "r0"})
	doc := mdoc(mpara("k1", "one"), mpara("k2", "two"), mpara("k3", "three"))
	pages, slugs := map[string]string{}, map[string]string{}
	for i := 0; i < n; i++ {
		p := page(fmt.Sprintf("p%05d", i), fmt.Sprintf("Page %d", i), "")
		p.Slug, p.Position = Slugify(p.Title), quire.KeyBetween("", "")
		if i == 42 {
			p.Document = ed.PutObject(doc)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		pages[p.ID], slugs[p.Slug] = ed.snap.r.put(b), p.ID
	}
	ed.snap.Rev.Pages, ed.snap.Rev.Slugs = bulkTrie(ed.snap.t, pages), bulkTrie(ed.snap.t, slugs)
	s := &mergeSpace{ctx: ctx, st: st, e: e}
	base = s.commit(t, ed, "base")
	s.base = base
	ours = s.change(t, "ours", redoc("p00042", mdoc(mpara("k1", "ONE"), mpara("k2", "two"), mpara("k3", "three"))))
	theirs = s.change(t, "theirs", func(ed *Edit) error {
		p, err := ed.UpdatePage(ctx, "p00042", nil, mdoc(mpara("k1", "one"), mpara("k2", "two"), mpara("k3", "THREE")), Move{})
		if err != nil {
			return err
		}
		// Rename without UpdatePage, which reads every sibling to place
		// the page again.
		if err := ed.unlink(ctx, "", p.Slug, p.ID); err != nil {
			return err
		}
		p.Slug = "renamed"
		if err := ed.putPage(ctx, p); err != nil {
			return err
		}
		_, err = ed.link(ctx, p.ID, true)
		return err
	})
	return st, base, ours, theirs
}

// TestMergeCostFollowsChange checks that merging a change to one page
// reads about as many objects from a space of 10,000 pages as from one of
// 100.
func TestMergeCostFollowsChange(t *testing.T) {
	ctx := context.Background()
	cost := func(n int) (objects, reads int) {
		st, base, ours, theirs := bigMergeSpace(t, n)
		cs := &countingStore{memRevisions: st}
		readsBefore := st.reads
		e := New() // an empty cache: every object is read from the store
		ed, conflicts, err := e.Merge(ctx, cs, base, ours, theirs)
		if err != nil || conflicts != nil {
			t.Fatalf("merge: %v %v", conflicts, err)
		}
		objects, reads = cs.objects, st.reads-readsBefore
		rev := ed.Revision("merged", "s1", quire.RevisionMerge, "u1", ours.ID)
		if err := ed.Commit(ctx, cs, rev); err != nil {
			t.Fatal(err)
		}
		snap := New().Snapshot(st, rev)
		p, err := snap.PageByPath(ctx, "renamed")
		if err != nil || p.ID != "p00042" {
			t.Fatalf("renamed page: %v %v", p, err)
		}
		if got, want := docTexts(t, snap, "p00042"), "k1=ONE k2=two k3=THREE"; got != want {
			t.Fatalf("document %q, want %q", got, want)
		}
		return objects, reads
	}
	smallObjects, smallReads := cost(100)
	largeObjects, largeReads := cost(10000)
	t.Logf("merge read %d objects in %d round trips with 100 pages, %d in %d with 10,000", smallObjects, smallReads, largeObjects, largeReads)
	if largeObjects > 2*smallObjects || largeReads > 2*smallReads {
		t.Fatalf("merge cost grows with the space: %d objects/%d reads vs %d/%d", largeObjects, largeReads, smallObjects, smallReads)
	}
}

func benchmarkMerge(b *testing.B, n int) {
	ctx := context.Background()
	st, base, ours, theirs := bigMergeSpace(b, n)
	b.ResetTimer()
	for b.Loop() {
		e := New()
		ed, conflicts, err := e.Merge(ctx, st, base, ours, theirs)
		if err != nil || conflicts != nil || ed == nil {
			b.Fatalf("merge: %v %v", conflicts, err)
		}
	}
}

// BenchmarkMerge100 merges a one-page change into a space of 100 pages.
func BenchmarkMerge100(b *testing.B) { benchmarkMerge(b, 100) }

// BenchmarkMerge10000 merges a one-page change into a space of 10,000
// pages.
func BenchmarkMerge10000(b *testing.B) { benchmarkMerge(b, 10000) }
