package service

import (
	"errors"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/quire"
)

// editFixture is a space with a page of three paragraphs, written and
// merged, and a change request to edit it in.
type editFixture struct {
	*mergeFixture
	page, cr string
}

// newEditFixture builds the page on f's space.
func newEditFixture(t *testing.T, f *mergeFixture) *editFixture {
	t.Helper()
	cr := f.changeRequest(t, "Page", newPage("Guide", "First paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n"))
	if _, err := f.svc.MergeChangeRequest(t.Context(), f.u, f.space, cr); err != nil {
		t.Fatal(err)
	}
	c, err := f.svc.Content(t.Context(), ContentRef{SpaceID: f.space})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := c.Pages(t.Context())
	if err != nil || len(pages) != 1 {
		t.Fatalf("pages %v, %v", pages, err)
	}
	draft, err := f.svc.DraftChangeRequest(t.Context(), f.u, f.space)
	if err != nil {
		t.Fatal(err)
	}
	return &editFixture{mergeFixture: f, page: pages[0].ID, cr: draft.ID}
}

// blocks returns the top-level blocks of the page in ref.
func (f *editFixture) blocks(t *testing.T, ref ContentRef) []document.Node {
	t.Helper()
	_, doc, err := f.svc.editablePage(t.Context(), ref, f.page)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Nodes
}

// text is the plain text of a block.
func text(n document.Node) string {
	return strings.TrimSpace((&document.Document{Nodes: []document.Node{n}}).PlainText())
}

// write writes one change to the fixture's change request.
func (f *editFixture) write(t *testing.T, ch ContentChange) error {
	_, _, err := f.svc.UpdateChangeRequestContent(t.Context(), f.u, f.space, f.cr, []ContentChange{ch})
	return err
}

// crRef is the content of the fixture's change request.
func (f *editFixture) crRef() ContentRef { return ContentRef{SpaceID: f.space, ChangeRequest: f.cr} }

// TestDraftChangeRequest checks that "Edit" finds the person's newest
// draft in the space, makes one when they have none, and does not take
// another person's draft or one that is open for review.
func TestDraftChangeRequest(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		first, err := f.svc.DraftChangeRequest(ctx, f.u, f.space)
		if err != nil {
			t.Fatal(err)
		}
		if first.Status != quire.CRDraft {
			t.Fatalf("a new draft is %s", first.Status)
		}
		again, err := f.svc.DraftChangeRequest(ctx, f.u, f.space)
		if err != nil {
			t.Fatal(err)
		}
		if again.ID != first.ID {
			t.Fatalf("a second Edit made change request #%d beside #%d", again.Number, first.Number)
		}
		open := quire.CROpen
		if _, err := f.svc.UpdateChangeRequest(ctx, f.space, first.ID, ChangeRequestPatch{Status: &open}); err != nil {
			t.Fatal(err)
		}
		next, err := f.svc.DraftChangeRequest(ctx, f.u, f.space)
		if err != nil {
			t.Fatal(err)
		}
		if next.ID == first.ID || next.Status != quire.CRDraft {
			t.Fatalf("Edit took the change request open for review (#%d, %s)", next.Number, next.Status)
		}
	})
}

// TestReplaceBlocks edits the middle paragraph of a page as Markdown that
// makes two blocks: the first keeps the paragraph's key, the second gets
// a new one, and the other blocks keep their keys and content. A save
// over a stale base is refused with both versions and changes nothing;
// the run of blocks the first save made is then edited as one.
func TestReplaceBlocks(t *testing.T) {
	forEachStore(t, func(t *testing.T, f0 *mergeFixture) {
		f := newEditFixture(t, f0)
		ctx := t.Context()
		before := f.blocks(t, f.crRef())
		if len(before) != 3 {
			t.Fatalf("%d blocks", len(before))
		}
		mid := before[1].Key
		src, err := f.svc.PageBlocks(ctx, f.crRef(), f.page, mid, 1)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(src.Markdown) != "Second paragraph." {
			t.Fatalf("block Markdown %q", src.Markdown)
		}
		var res EditResult
		ch, err := ReplaceBlocks(f.space, f.page, mid, 1, src.Base, "Second, edited.\n\n## A new heading\n", &res)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.write(t, ch); err != nil {
			t.Fatal(err)
		}
		after := f.blocks(t, f.crRef())
		if len(after) != 4 {
			t.Fatalf("%d blocks after the edit", len(after))
		}
		if after[1].Key != mid || text(after[1]) != "Second, edited." {
			t.Errorf("the edited block is %q %q, want key %q", after[1].Key, text(after[1]), mid)
		}
		if after[2].Type != document.TypeHeading2 || after[2].Key == mid || after[2].Key == "" {
			t.Errorf("the added block is %s with key %q", after[2].Type, after[2].Key)
		}
		for _, i := range [][2]int{{0, 0}, {2, 3}} {
			if after[i[1]].Key != before[i[0]].Key || document.BlockHash(after[i[1]]) != document.BlockHash(before[i[0]]) {
				t.Errorf("block %d changed: %q %q", i[0], after[i[1]].Key, text(after[i[1]]))
			}
		}
		if len(res.Keys) != 2 || res.Keys[0] != mid || res.Base != ContentHash(after[1:3]) {
			t.Errorf("result %+v", res)
		}

		// Another save from the version first opened is stale.
		ch, err = ReplaceBlocks(f.space, f.page, mid, 1, src.Base, "Mine.\n", nil)
		if err != nil {
			t.Fatal(err)
		}
		err = f.write(t, ch)
		var c *EditConflict
		if !asConflict(err, &c) || quire.ErrorCode(err) != quire.ECONFLICT {
			t.Fatalf("a stale save: %v", err)
		}
		if strings.TrimSpace(c.Theirs) != "Second, edited." || c.Base != ContentHash(after[1:2]) {
			t.Errorf("theirs %q base %q", c.Theirs, c.Base)
		}
		if got := f.blocks(t, f.crRef()); ContentHash(got) != ContentHash(after) {
			t.Fatalf("a refused save changed the page")
		}

		// The run the first save made, saved again as one.
		ch, err = ReplaceBlocks(f.space, f.page, mid, 2, res.Base, "Second, once more.\n", &res)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.write(t, ch); err != nil {
			t.Fatal(err)
		}
		last := f.blocks(t, f.crRef())
		if len(last) != 3 || last[1].Key != mid || text(last[1]) != "Second, once more." || last[2].Key != before[2].Key {
			t.Fatalf("after saving the run: %d blocks, %q %q", len(last), last[1].Key, text(last[1]))
		}

		// Insert after a block and at the end, then delete.
		ch, err = InsertBlocks(f.space, f.page, before[0].Key, "Inserted.\n", &res)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.write(t, ch); err != nil {
			t.Fatal(err)
		}
		ch, err = InsertBlocks(f.space, f.page, "", "At the end.\n", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.write(t, ch); err != nil {
			t.Fatal(err)
		}
		got := f.blocks(t, f.crRef())
		if len(got) != 5 || text(got[1]) != "Inserted." || got[1].Key != res.Keys[0] || text(got[4]) != "At the end." {
			t.Fatalf("after inserting: %d blocks", len(got))
		}
		if _, err := DeleteBlocks(f.page, got[1].Key, 1, src.Base); err != nil {
			t.Fatal(err)
		}
		ch, _ = DeleteBlocks(f.page, got[1].Key, 1, src.Base)
		if err := f.write(t, ch); quire.ErrorCode(err) != quire.ECONFLICT {
			t.Fatalf("deleting over a stale base: %v", err)
		}
		ch, _ = DeleteBlocks(f.page, got[1].Key, 1, res.Base)
		if err := f.write(t, ch); err != nil {
			t.Fatal(err)
		}
		if got = f.blocks(t, f.crRef()); len(got) != 4 || text(got[1]) != "Second, once more." {
			t.Fatalf("after deleting: %d blocks", len(got))
		}

		// A block removed meanwhile is gone, not recreated.
		ch, _ = ReplaceBlocks(f.space, f.page, "nosuchblock", 1, res.Base, "x\n", nil)
		err = f.write(t, ch)
		if !asConflict(err, &c) || !c.Gone {
			t.Fatalf("editing a missing block: %v", err)
		}
		// The main content did not change: edits went to the change request.
		if main := f.blocks(t, ContentRef{SpaceID: f.space}); ContentHash(main) != ContentHash(before) {
			t.Fatalf("the change request's edits reached main")
		}
	})
}

// TestEditInputRefused checks that malformed edits are refused before
// anything is written, naming their field.
func TestEditInputRefused(t *testing.T) {
	forEachStore(t, func(t *testing.T, f0 *mergeFixture) {
		f := newEditFixture(t, f0)
		base := ContentHash(nil)
		for _, c := range []struct {
			name, field string
			make        func() (ContentChange, error)
		}{
			{"empty page id", "pageId", func() (ContentChange, error) { return ReplaceBlocks(f.space, "", "k", 1, base, "x", nil) }},
			{"page id with a slash", "pageId", func() (ContentChange, error) { return ReplaceBlocks(f.space, "a/b", "k", 1, base, "x", nil) }},
			{"key with a space", "key", func() (ContentChange, error) { return ReplaceBlocks(f.space, f.page, "a b", 1, base, "x", nil) }},
			{"long key", "key", func() (ContentChange, error) {
				return ReplaceBlocks(f.space, f.page, strings.Repeat("k", 101), 1, base, "x", nil)
			}},
			{"no blocks", "blocks", func() (ContentChange, error) { return ReplaceBlocks(f.space, f.page, "k", 0, base, "x", nil) }},
			{"bad base", "base", func() (ContentChange, error) { return ReplaceBlocks(f.space, f.page, "k", 1, "nope", "x", nil) }},
			{"huge markdown", "markdown", func() (ContentChange, error) {
				return ReplaceBlocks(f.space, f.page, "k", 1, base, strings.Repeat("x", MaxEditMarkdown+1), nil)
			}},
			{"too deep markdown", "markdown", func() (ContentChange, error) {
				return ReplacePage(f.space, f.page, base, strings.Repeat(">", 5000)+" deep\n", nil)
			}},
			{"empty insert", "markdown", func() (ContentChange, error) { return InsertBlocks(f.space, f.page, "", "  \n", nil) }},
			{"bad page base", "base", func() (ContentChange, error) { return ReplacePage(f.space, f.page, "", "x", nil) }},
		} {
			_, err := c.make()
			var qe *quire.Error
			if !asError(err, &qe) || qe.Code != quire.EINVALID || qe.Field != c.field {
				t.Errorf("%s: %v, want EINVALID on %s", c.name, err, c.field)
			}
		}
		// A page that is not there names the page.
		ch, err := ReplaceBlocks(f.space, "nosuchpage", "k", 1, base, "x", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.write(t, ch); quire.ErrorCode(err) != quire.EINVALID || !strings.Contains(err.Error(), "page") {
			t.Errorf("editing a missing page: %v", err)
		}
		if _, err := f.svc.PageBlocks(t.Context(), f.crRef(), "nosuchpage", "k", 1); !quire.IsNotFound(err) {
			t.Errorf("reading a missing page: %v", err)
		}
	})
}

// TestReplacePage saves a page's whole Markdown: unchanged blocks keep
// their keys, and a save over a page changed meanwhile is refused with
// the page's Markdown now.
func TestReplacePage(t *testing.T) {
	forEachStore(t, func(t *testing.T, f0 *mergeFixture) {
		f := newEditFixture(t, f0)
		ctx := t.Context()
		before := f.blocks(t, f.crRef())
		src, err := f.svc.PageMarkdown(ctx, f.crRef(), f.page)
		if err != nil {
			t.Fatal(err)
		}
		md := strings.Replace(src.Markdown, "Second paragraph.", "Second, in Markdown mode.", 1)
		var res EditResult
		ch, err := ReplacePage(f.space, f.page, src.Base, md, &res)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.write(t, ch); err != nil {
			t.Fatal(err)
		}
		after := f.blocks(t, f.crRef())
		if len(after) != 3 || after[0].Key != before[0].Key || after[2].Key != before[2].Key || text(after[1]) != "Second, in Markdown mode." {
			t.Fatalf("after the save: %d blocks", len(after))
		}
		if res.Base != ContentHash(after) {
			t.Errorf("the new base is not the page's hash")
		}
		ch, _ = ReplacePage(f.space, f.page, src.Base, "Overwrite.\n", nil)
		err = f.write(t, ch)
		var c *EditConflict
		if !asConflict(err, &c) || !strings.Contains(c.Theirs, "Second, in Markdown mode.") || c.Base != res.Base {
			t.Fatalf("a stale page save: %v", err)
		}
	})
}

// TestWriteLive checks live saves: refused while the space is locked
// (not live); once live, each save is merged into
// main at once; a block save over a version another live save replaced
// meanwhile is refused and leaves no open change request behind.
func TestWriteLive(t *testing.T) {
	forEachStore(t, func(t *testing.T, f0 *mergeFixture) {
		f := newEditFixture(t, f0)
		ctx := t.Context()
		main := ContentRef{SpaceID: f.space}
		src, err := f.svc.PageBlocks(ctx, main, f.page, f.blocks(t, main)[0].Key, 1)
		if err != nil {
			t.Fatal(err)
		}
		ch, _ := ReplaceBlocks(f.space, f.page, src.Key, 1, src.Base, "Live edit.\n", nil)
		locked, live := quire.EditModeLocked, quire.EditModeLive
		if _, err := f.svc.UpdateSpace(ctx, f.u, f.space, quire.SpaceUpdate{EditMode: &locked}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.WriteLive(ctx, f.u, f.space, "Live", []ContentChange{ch}); quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("a live save in a locked space: %v", err)
		}
		if _, err := f.svc.UpdateSpace(ctx, f.u, f.space, quire.SpaceUpdate{EditMode: &live}); err != nil {
			t.Fatal(err)
		}
		out, _, err := f.svc.WriteLive(ctx, f.u, f.space, "Live", []ContentChange{ch})
		if err != nil {
			t.Fatal(err)
		}
		if out.Result != ResultMerge {
			t.Fatalf("a live save: %v", out.Result)
		}
		if got := text(f.blocks(t, main)[0]); got != "Live edit." {
			t.Fatalf("main holds %q after a live save", got)
		}
		// The same save again, from the version first opened: stale.
		ch, _ = ReplaceBlocks(f.space, f.page, src.Key, 1, src.Base, "Second writer.\n", nil)
		_, _, err = f.svc.WriteLive(ctx, f.u, f.space, "Live again", []ContentChange{ch})
		var c *EditConflict
		if !asConflict(err, &c) || strings.TrimSpace(c.Theirs) != "Live edit." {
			t.Fatalf("a conflicting live save: %v", err)
		}
		if got := text(f.blocks(t, main)[0]); got != "Live edit." {
			t.Fatalf("a refused live save changed main: %q", got)
		}
		l, err := f.svc.store.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: f.space, Status: quire.CROpen}, quire.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, cr := range l.Items {
			if cr.Subject == "Live again" {
				t.Errorf("the refused live save left change request #%d open", cr.Number)
			}
		}
	})
}

// asConflict reports whether err holds an *EditConflict, into c.
func asConflict(err error, c **EditConflict) bool { return errors.As(err, c) }
