package service

import (
	"errors"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/quire"
)

// guideBefore and guideAfter are a page's Markdown before and after an
// edit that keeps three blocks, removes a quote, changes a paragraph and
// adds a code block.
const (
	guideBefore = "## Guide\n\nKeep one.\n\n> Remove me.\n\nChange me.\n\nKeep two.\n"
	guideAfter  = "## Guide\n\nKeep one.\n\nChange me, changed.\n\n```\nadded\n```\n\nKeep two.\n"
)

// diffFixture is a merged space with pages to change and an open change
// request changing them.
type diffFixture struct {
	guide, rename, remove, section, mover string
	base, cr                              string
}

func newDiffFixture(t *testing.T, f *mergeFixture) *diffFixture {
	t.Helper()
	ctx := t.Context()
	first := f.changeRequest(t, "First", newPage("Guide", guideBefore), newPage("Old name", "Named.\n"),
		newPage("To remove", "Gone soon.\n"), newPage("Section", "Holds pages.\n"), newPage("Mover", "Moves.\n"))
	out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, first)
	if err != nil {
		t.Fatal(err)
	}
	_ = out
	pages, err := f.svc.ChangeRequestPages(ctx, f.space, first)
	if err != nil {
		t.Fatal(err)
	}
	d := &diffFixture{}
	for _, p := range pages {
		switch p.Title {
		case "Guide":
			d.guide = p.ID
		case "Old name":
			d.rename = p.ID
		case "To remove":
			d.remove = p.ID
		case "Section":
			d.section = p.ID
		case "Mover":
			d.mover = p.ID
		}
	}
	sp, err := f.svc.Space(ctx, f.space)
	if err != nil {
		t.Fatal(err)
	}
	d.base = sp.Revision
	md, title, slug := guideAfter, "New name", "new-name"
	d.cr = f.changeRequest(t, "Second",
		ContentChange{Operation: OpUpdatePage, Page: d.guide, Document: &DocumentInput{Markdown: &md}},
		ContentChange{Operation: OpUpdatePage, Page: d.rename, Fields: PageFields{Title: &title, Slug: &slug}},
		ContentChange{Operation: OpDeletePage, Page: d.remove},
		ContentChange{Operation: OpUpdatePage, Page: d.mover, Into: &d.section},
		newPage("Fresh", "New here.\n"))
	return d
}

// TestChangeRequestDiff checks the pages a change request adds, removes,
// edits, moves and renames, that a page changed only below is left out,
// and the blocks of an edited page, classified and in order, with the
// keys of the kept and changed blocks kept.
func TestChangeRequestDiff(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		fx := newDiffFixture(t, f)
		d, err := f.svc.ChangeRequestDiff(ctx, f.space, fx.cr, SpaceAddresses{}, SpaceAddresses{})
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]PageDiff{}
		for _, p := range d.Pages {
			byID[p.ID] = p
		}
		if _, ok := byID[fx.section]; ok {
			t.Errorf("the section, changed only by a page moved below it, is listed: %+v", byID[fx.section].ChangedPage)
		}
		if len(d.Pages) != 5 {
			t.Errorf("%d changed pages, want 5: %+v", len(d.Pages), d.Pages)
		}
		check := func(id, name, change string, moved, renamed, doc bool) {
			t.Helper()
			p, ok := byID[id]
			if !ok {
				t.Errorf("%s not listed", name)
				return
			}
			if p.Change != change || p.Moved != moved || p.Renamed != renamed || p.DocumentChanged != doc {
				t.Errorf("%s: %+v, want %s moved=%v renamed=%v document=%v", name, p.ChangedPage, change, moved, renamed, doc)
			}
		}
		check(fx.guide, "Guide", PageEdited, false, false, true)
		check(fx.rename, "Old name", PageEdited, false, true, false)
		check(fx.remove, "To remove", PageRemoved, false, false, true)
		check(fx.mover, "Mover", PageEdited, true, false, false)
		if p := byID[fx.rename]; p.Title != "New name" || p.OldTitle != "Old name" || p.Path != "new-name" || p.OldPath != "old-name" {
			t.Errorf("renamed page: %+v", p.ChangedPage)
		}
		if p := byID[fx.mover]; p.Path != "section/mover" || p.OldPath != "mover" {
			t.Errorf("moved page: %+v", p.ChangedPage)
		}
		if p := byID[fx.remove]; p.New != nil || p.Old == nil || len(p.Blocks) != 1 || p.Blocks[0].Change != BlockRemoved {
			t.Errorf("removed page: %+v", p)
		}
		var fresh *PageDiff
		for i := range d.Pages {
			if d.Pages[i].Title == "Fresh" {
				fresh = &d.Pages[i]
			}
		}
		if fresh == nil || fresh.Change != PageAdded || fresh.Old != nil || len(fresh.Blocks) != 1 || fresh.Blocks[0].Change != BlockAdded {
			t.Errorf("added page: %+v", fresh)
		}
		for i := 1; i < len(d.Pages); i++ {
			if d.Pages[i-1].Path > d.Pages[i].Path {
				t.Errorf("pages out of path order: %q before %q", d.Pages[i-1].Path, d.Pages[i].Path)
			}
		}

		guide := byID[fx.guide]
		var got []string
		for _, b := range guide.Blocks {
			got = append(got, b.Change)
		}
		want := []string{BlockUnchanged, BlockUnchanged, BlockRemoved, BlockChanged, BlockAdded, BlockUnchanged}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("guide blocks %v, want %v", got, want)
		}
		oldNodes := guide.Old.Document.Nodes
		if b := guide.Blocks[3]; b.Key != oldNodes[3].Key || b.Old.Key != b.New.Key || b.Key == "" {
			t.Errorf("the changed block's key %q, want the old %q on both sides", b.Key, oldNodes[3].Key)
		}
		if b := guide.Blocks[2]; b.Old == nil || b.New != nil || b.Old.Type != "blockquote" {
			t.Errorf("removed block: %+v", b)
		}
		if b := guide.Blocks[4]; b.New == nil || b.Old != nil || b.New.Type != "code" {
			t.Errorf("added block: %+v", b)
		}
		lines, err := guide.MarkdownDiff()
		if err != nil {
			t.Fatal(err)
		}
		var plus, minus []string
		for _, l := range lines {
			switch l.Change {
			case LineAdded:
				plus = append(plus, l.Text)
			case LineRemoved:
				minus = append(minus, l.Text)
			}
		}
		if !strings.Contains(strings.Join(plus, "\n"), "Change me, changed.") || !strings.Contains(strings.Join(minus, "\n"), "> Remove me.") ||
			strings.Contains(strings.Join(plus, "\n"), "Keep one.") {
			t.Errorf("Markdown diff: +%q −%q", plus, minus)
		}

		// The change request's page list is the same.
		pages, err := f.svc.ChangeRequestPages(ctx, f.space, fx.cr)
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) != len(d.Pages) {
			t.Errorf("ChangeRequestPages lists %d pages, the diff %d", len(pages), len(d.Pages))
		}
		if _, err := f.svc.ChangeRequestDiff(ctx, f.space, "999", SpaceAddresses{}, SpaceAddresses{}); !quire.IsNotFound(err) {
			t.Errorf("unknown change request: %v, want ENOTFOUND", err)
		}
	})
}

// TestCompareRevisions checks a comparison of two revisions after a
// merge, and the refusals naming the field: a missing revision, one of
// another space, and a revision compared with itself.
func TestCompareRevisions(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		fx := newDiffFixture(t, f)
		if _, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, fx.cr); err != nil {
			t.Fatal(err)
		}
		sp, err := f.svc.Space(ctx, f.space)
		if err != nil {
			t.Fatal(err)
		}
		d, err := f.svc.CompareRevisions(ctx, f.space, fx.base, sp.Revision, SpaceAddresses{}, SpaceAddresses{})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Pages) != 5 || d.From.Rev.ID != fx.base || d.To.Rev.ID != sp.Revision {
			t.Errorf("%d pages from %s to %s, want 5 from %s to %s", len(d.Pages), d.From.Rev.ID, d.To.Rev.ID, fx.base, sp.Revision)
		}
		// The other way round, the added page is removed.
		back, err := f.svc.CompareRevisions(ctx, f.space, sp.Revision, fx.base, SpaceAddresses{}, SpaceAddresses{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range back.Pages {
			if p.Title == "Fresh" && p.Change != PageRemoved {
				t.Errorf("compared backwards, the new page is %s", p.Change)
			}
		}
		other, err := f.svc.CreateSpace(ctx, f.u, sp.OrgID, SpaceInput{Title: "Other"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ from, to, field string }{
			{"", sp.Revision, "from"},
			{fx.base, "", "to"},
			{"nosuchrevision", sp.Revision, "from"},
			{fx.base, other.Space.Revision, "to"},
			{sp.Revision, sp.Revision, "to"},
		} {
			_, err := f.svc.CompareRevisions(ctx, f.space, c.from, c.to, SpaceAddresses{}, SpaceAddresses{})
			var qe *quire.Error
			if !errors.As(err, &qe) || qe.Code != quire.EINVALID || qe.Field != c.field {
				t.Errorf("compare %q with %q: %v, want EINVALID on %s", c.from, c.to, err, c.field)
			}
		}
	})
}

// TestDiffBlocks checks the matching of blocks on its own: a moved block
// listed where the new side has it and marked, blocks without keys
// matched by content, and absent sides.
func TestDiffBlocks(t *testing.T) {
	para := func(key, text string) document.Node {
		return document.Node{Object: document.ObjectBlock, Type: "paragraph", Key: key, Nodes: []document.Node{
			{Object: "text", Leaves: []document.Leaf{{Text: text}}}}}
	}
	old := &document.Document{Nodes: []document.Node{para("a", "A"), para("b", "B"), para("c", "C"), para("", "free")}}
	cur := &document.Document{Nodes: []document.Node{para("c", "C"), para("a", "A"), para("b", "B2"), para("", "free")}}
	var got []string
	for _, b := range DiffBlocks(old, cur) {
		s := b.Key + ":" + b.Change
		if b.Moved {
			s += ":moved"
		}
		got = append(got, s)
	}
	if want := "c:unchanged:moved a:unchanged b:changed :unchanged"; strings.Join(got, " ") != want {
		t.Errorf("blocks %q, want %q", strings.Join(got, " "), want)
	}
	if bs := DiffBlocks(nil, cur); len(bs) != 4 || bs[0].Change != BlockAdded {
		t.Errorf("no old side: %+v", bs)
	}
	if bs := DiffBlocks(old, nil); len(bs) != 4 || bs[3].Change != BlockRemoved {
		t.Errorf("no new side: %+v", bs)
	}
}
