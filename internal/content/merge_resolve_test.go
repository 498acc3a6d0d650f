package content

import (
	"encoding/json"
	"fmt"
	"testing"

	"quire/internal/quire"
)

// mergeResolved merges with resolutions, commits the result and returns
// its snapshot, or the conflicts left.
func (s *mergeSpace) mergeResolved(t testing.TB, ours, theirs *quire.Revision, res map[string]Resolution) (*Snapshot, []Conflict) {
	t.Helper()
	s.n++
	ed, conflicts, err := s.e.MergeResolved(s.ctx, s.st, s.base, ours, theirs, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(conflicts) > 0 {
		return nil, conflicts
	}
	rev := ed.Revision(fmt.Sprintf("resolved%d", s.n), "s1", quire.RevisionUpdate, "u1", ours.ID)
	if err := ed.Commit(s.ctx, s.st, rev); err != nil {
		t.Fatal(err)
	}
	snap := New().Snapshot(s.st, rev)
	checkTree(t, snap)
	return snap, nil
}

// TestMergeResolvedBlocks settles two block conflicts on one page, each
// way and by edited content, while both sides' other changes merge.
func TestMergeResolvedBlocks(t *testing.T) {
	s := newMergeSpace(t)
	// Both sides change k2 and k3; ours changes k1 alone, theirs k4 alone
	// and the title of b.
	ours := s.change(t, "ours", redoc("a", mdoc(mpara("k1", "ONE"), mpara("k2", "two mine"), mpara("k3", "three mine"), mpara("k4", "four"))))
	theirs := s.change(t, "theirs", both(retitle("b", "All Guides"),
		redoc("a", mdoc(mpara("k1", "one"), mpara("k2", "two main"), mpara("k3", "three main"), mpara("k4", "FOUR")))))
	_, conflicts := s.merge(t, ours, theirs)
	if got, want := conflictList(conflicts), "a//document/k2 a//document/k3"; got != want {
		t.Fatalf("conflicts %q, want %q", got, want)
	}
	k2, k3 := conflicts[0].ID(), conflicts[1].ID()
	if k2 != "page/a/document/k2" {
		t.Fatalf("conflict id %q", k2)
	}
	cases := []struct {
		name string
		res  map[string]Resolution
		want string
	}{
		{"ours and theirs", map[string]Resolution{k2: {Take: TakeOurs}, k3: {Take: TakeTheirs}},
			"k1=ONE k2=two mine k3=three main k4=FOUR"},
		{"theirs and ours", map[string]Resolution{k2: {Take: TakeTheirs}, k3: {Take: TakeOurs}},
			"k1=ONE k2=two main k3=three mine k4=FOUR"},
		{"edited, with a block more", map[string]Resolution{k2: {Take: TakeTheirs},
			k3: {Take: TakeEdited, Blocks: []json.RawMessage{json.RawMessage(mpara("k3", "three both")), json.RawMessage(mpara("k9", "nine"))}}},
			"k1=ONE k2=two main k3=three both k9=nine k4=FOUR"},
		{"edited to nothing", map[string]Resolution{k2: {Take: TakeOurs}, k3: {Take: TakeEdited}},
			"k1=ONE k2=two mine k4=FOUR"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			snap, left := s.mergeResolved(t, ours, theirs, tc.res)
			if left != nil {
				t.Fatalf("conflicts left: %v", left)
			}
			if got := docTexts(t, snap, "a"); got != tc.want {
				t.Fatalf("document %q, want %q", got, tc.want)
			}
			if got := mustPage(t, snap, "b").Title; got != "All Guides" {
				t.Fatalf("the other side's title lost: %q", got)
			}
		})
	}
	// One conflict left unsettled is still reported, and nothing else.
	_, left := s.mergeResolved(t, ours, theirs, map[string]Resolution{k2: {Take: TakeOurs}})
	if got := conflictList(left); got != "a//document/k3" {
		t.Fatalf("left %q, want k3 only", got)
	}
	// An unknown choice settles nothing.
	_, left = s.mergeResolved(t, ours, theirs, map[string]Resolution{k2: {Take: "both"}, k3: {Take: TakeOurs}})
	if got := conflictList(left); got != "a//document/k2" {
		t.Fatalf("left %q, want k2", got)
	}
}

// TestMergeResolvedDeletedBlock keeps or drops a block deleted on one
// side and edited on the other, in its place.
func TestMergeResolvedDeletedBlock(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", redoc("a", mdoc(mpara("k1", "one"), mpara("k2", "TWO"), mpara("k3", "three"), mpara("k4", "four"))))
	theirs := s.change(t, "theirs", redoc("a", mdoc(mpara("k1", "one"), mpara("k3", "three"), mpara("k4", "FOUR"))))
	_, conflicts := s.merge(t, ours, theirs)
	if got := conflictList(conflicts); got != "a//document/k2" {
		t.Fatalf("conflicts %q", got)
	}
	id := conflicts[0].ID()
	snap, left := s.mergeResolved(t, ours, theirs, map[string]Resolution{id: {Take: TakeOurs}})
	if left != nil {
		t.Fatal(left)
	}
	if got, want := docTexts(t, snap, "a"), "k1=one k2=TWO k3=three k4=FOUR"; got != want {
		t.Fatalf("kept: %q, want %q", got, want)
	}
	snap, left = s.mergeResolved(t, ours, theirs, map[string]Resolution{id: {Take: TakeTheirs}})
	if left != nil {
		t.Fatal(left)
	}
	if got, want := docTexts(t, snap, "a"), "k1=one k3=three k4=FOUR"; got != want {
		t.Fatalf("dropped: %q, want %q", got, want)
	}
}

// TestMergeResolvedPages settles page-level conflicts: a field, a page
// deleted on one side and edited on the other, and a file.
func TestMergeResolvedPages(t *testing.T) {
	s := newMergeSpace(t)
	ours := s.change(t, "ours", both(retitle("b", "Mine"), retitle("c", "Setup")))
	theirs := s.change(t, "theirs", both(retitle("b", "Main's"), func(ed *Edit) error { return ed.DeletePage(s.ctx, "c") }))
	_, conflicts := s.merge(t, ours, theirs)
	if got := conflictList(conflicts); got != "b//title/ c///" {
		t.Fatalf("conflicts %q", got)
	}
	res := map[string]Resolution{conflicts[0].ID(): {Take: TakeTheirs}, conflicts[1].ID(): {Take: TakeOurs}}
	snap, left := s.mergeResolved(t, ours, theirs, res)
	if left != nil {
		t.Fatal(left)
	}
	if got := mustPage(t, snap, "b").Title; got != "Main's" {
		t.Fatalf("title %q", got)
	}
	if got := mustPage(t, snap, "c").Title; got != "Setup" {
		t.Fatalf("kept page's title %q", got)
	}
	res = map[string]Resolution{conflicts[0].ID(): {Take: TakeOurs}, conflicts[1].ID(): {Take: TakeTheirs}}
	if snap, left = s.mergeResolved(t, ours, theirs, res); left != nil {
		t.Fatal(left)
	}
	if got := mustPage(t, snap, "b").Title; got != "Mine" {
		t.Fatalf("title %q", got)
	}
	if _, err := snap.Page(s.ctx, "c"); !quire.IsNotFound(err) {
		t.Fatalf("page deleted by the chosen side is there: %v", err)
	}
	// Restored: edited on theirs, deleted on ours.
	ours2 := s.change(t, "ours2", func(ed *Edit) error { return ed.DeletePage(s.ctx, "c") })
	theirs2 := s.change(t, "theirs2", retitle("c", "Setup"))
	_, conflicts = s.merge(t, ours2, theirs2)
	if got := conflictList(conflicts); got != "c///" {
		t.Fatalf("conflicts %q", got)
	}
	if snap, left = s.mergeResolved(t, ours2, theirs2, map[string]Resolution{conflicts[0].ID(): {Take: TakeTheirs}}); left != nil {
		t.Fatal(left)
	}
	if got, want := paths(t, snap), "getting-started getting-started/install guides reference"; got != want || mustPage(t, snap, "c").Title != "Setup" {
		t.Fatalf("restored page: %q", got)
	}
}
