package service

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// blocksOf lists a page's top-level blocks in a change request (or main,
// for crID "") as key=markdown.
func (f *mergeFixture) blocksOf(t *testing.T, crID, pageID string) []string {
	t.Helper()
	ctx := t.Context()
	revID := ""
	if crID == "" {
		sp, err := f.svc.Space(ctx, f.space)
		if err != nil {
			t.Fatal(err)
		}
		revID = sp.Revision
	} else {
		cr, err := f.svc.ChangeRequest(ctx, f.space, crID)
		if err != nil {
			t.Fatal(err)
		}
		revID = cr.Revision
	}
	rev, err := f.st.Revision(ctx, f.space, revID)
	if err != nil {
		t.Fatal(err)
	}
	snap := f.svc.engine.Snapshot(f.st, rev)
	p, err := snap.Page(ctx, pageID)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := snap.Document(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := document.ParseStored(raw)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range doc.Nodes {
		md, err := document.ToMarkdown(&document.Document{Nodes: []document.Node{n}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n.Key+"="+strings.TrimSpace(md))
	}
	return out
}

// editPage is a change replacing a page's Markdown.
func editPage(id, body string) ContentChange {
	return ContentChange{Operation: OpUpdatePage, Page: id, Document: &DocumentInput{Markdown: &body}}
}

// conflictSetup merges a page of three paragraphs, then a change request
// (main's) editing the first two and adding a page, and leaves mine,
// which edits all three, in conflict on the first two.
func conflictSetup(t *testing.T, f *mergeFixture) (mine, page string, keys []string) {
	t.Helper()
	ctx := t.Context()
	cr, err := f.svc.CreateChangeRequest(ctx, f.u, f.space, "Start")
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := f.svc.UpdateChangeRequestContent(ctx, f.u, f.space, cr.ID, []ContentChange{newPage("Guide", "One\n\nTwo\n\nThree\n")})
	if err != nil {
		t.Fatal(err)
	}
	page = res[0].PageID
	if out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, cr.ID); err != nil || out.Result != ResultMerge {
		t.Fatalf("merge: %v %+v", err, out)
	}
	for _, b := range f.blocksOf(t, "", page) {
		keys = append(keys, strings.SplitN(b, "=", 2)[0])
	}
	theirs := f.changeRequest(t, "Main's", editPage(page, "One main\n\nTwo main\n\nThree\n"), newPage("Extra", "More"))
	mine = f.changeRequest(t, "Mine", editPage(page, "One mine\n\nTwo mine\n\nThree mine\n"))
	if out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, theirs); err != nil || out.Result != ResultMerge {
		t.Fatalf("merge: %v %+v", err, out)
	}
	return mine, page, keys
}

// TestChangeRequestConflictsOrder checks that conflicts are listed in
// reading order: pages as the tree has them, blocks as the page has them.
func TestChangeRequestConflictsOrder(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		const n = 6
		var body, theirs, mine []string
		for i := range n {
			body = append(body, fmt.Sprintf("Block %d", i))
			theirs = append(theirs, fmt.Sprintf("Block %d, main", i))
			mine = append(mine, fmt.Sprintf("Block %d, mine", i))
		}
		start := f.changeRequest(t, "Start", newPage("Second", strings.Join(body, "\n\n")), newPage("First", strings.Join(body, "\n\n")))
		if out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, start); err != nil || out.Result != ResultMerge {
			t.Fatalf("merge: %v %+v", err, out)
		}
		c, err := f.svc.Content(ctx, ContentRef{SpaceID: f.space})
		if err != nil {
			t.Fatal(err)
		}
		tree, err := c.SharedTree(ctx)
		if err != nil || len(tree.Nodes) != 2 {
			t.Fatalf("tree %v %v", tree, err)
		}
		var want []string
		var editsMain, editsMine []ContentChange
		for _, node := range tree.Nodes {
			for _, b := range f.blocksOf(t, "", node.Page.ID) {
				want = append(want, node.Page.Title+"/"+strings.SplitN(b, "=", 2)[0])
			}
			editsMain = append(editsMain, editPage(node.Page.ID, strings.Join(theirs, "\n\n")))
			editsMine = append(editsMine, editPage(node.Page.ID, strings.Join(mine, "\n\n")))
		}
		mineCR := f.changeRequest(t, "Mine", editsMine...)
		if out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, f.changeRequest(t, "Main's", editsMain...)); err != nil || out.Result != ResultMerge {
			t.Fatalf("merge: %v %+v", err, out)
		}
		got, err := f.svc.ChangeRequestConflicts(ctx, f.space, mineCR)
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, c := range got.Conflicts {
			order = append(order, c.PageTitle+"/"+c.Block)
		}
		if strings.Join(order, " ") != strings.Join(want, " ") {
			t.Errorf("conflicts in the order\n%v\nwant\n%v", order, want)
		}
	})
}

func TestChangeRequestConflictsResolve(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		mine, page, keys := conflictSetup(t, f)
		got, err := f.svc.ChangeRequestConflicts(ctx, f.space, mine)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Conflicts) != 2 {
			t.Fatalf("conflicts %+v, want two", got.Conflicts)
		}
		c0, c1 := got.Conflicts[0], got.Conflicts[1]
		if c0.Block != keys[0] || c1.Block != keys[1] {
			t.Fatalf("conflicts on %s and %s, want the first two blocks in order %v", c0.Block, c1.Block, keys)
		}
		if c0.PageTitle != "Guide" || c0.Mine.Path != "guide" || c0.Main.Block == nil || c0.Mine.Block == nil {
			t.Fatalf("conflict %+v lacks its sides", c0)
		}
		byKey := map[string]ChangeConflict{c0.Block: c0, c1.Block: c1}
		if m := byKey[keys[0]].Mine.Markdown; strings.TrimSpace(m) != "One mine" {
			t.Fatalf("mine's Markdown %q", m)
		}
		if m := byKey[keys[0]].Main.Markdown; strings.TrimSpace(m) != "One main" {
			t.Fatalf("main's Markdown %q", m)
		}
		before, _ := f.svc.ChangeRequest(ctx, f.space, mine)
		in := ConflictResolutions{Main: got.Main, Revision: got.Revision, Choices: map[string]ConflictChoice{
			byKey[keys[0]].ID: {Take: content.TakeTheirs},
			byKey[keys[1]].ID: {Take: content.TakeEdited, Markdown: "Two, both\n"},
		}}
		out, err := f.svc.ResolveChangeRequestConflicts(ctx, f.u, f.space, mine, in)
		if err != nil {
			t.Fatal(err)
		}
		if out.Result != ResultUpdate || out.ChangeRequest.Revision == before.Revision {
			t.Fatalf("outcome %+v", out)
		}
		want := []string{keys[0] + "=One main", keys[1] + "=Two, both", keys[2] + "=Three mine"}
		if got := f.blocksOf(t, mine, page); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("blocks %q, want %q", got, want)
		}
		// Up to date: nothing left to update, and main's new page is there.
		now, err := f.svc.ChangeRequestConflicts(ctx, f.space, mine)
		if err != nil || len(now.Conflicts) != 0 {
			t.Fatalf("conflicts after: %v %+v", err, now)
		}
		if out, err := f.svc.UpdateChangeRequestFromMain(ctx, f.u, f.space, mine); err != nil || out.Revision != now.Revision {
			t.Fatalf("update after: %v %+v", err, out)
		}
		pages, err := f.svc.ChangeRequestPages(ctx, f.space, mine)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			if p.Title == "Extra" {
				t.Fatalf("main's page shows as the change request's change: %+v", pages)
			}
		}
		if out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, mine); err != nil || out.Result != ResultMerge {
			t.Fatalf("merge after: %v %+v", err, out)
		}
		if got := f.blocksOf(t, "", page); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("main's blocks %q", got)
		}
	})
}

func TestChangeRequestConflictsStaleAndMalformed(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		mine, _, keys := conflictSetup(t, f)
		got, err := f.svc.ChangeRequestConflicts(ctx, f.space, mine)
		if err != nil {
			t.Fatal(err)
		}
		all := map[string]ConflictChoice{}
		for _, c := range got.Conflicts {
			all[c.ID] = ConflictChoice{Take: content.TakeOurs}
		}
		before, _ := f.svc.ChangeRequest(ctx, f.space, mine)
		check := func(name string, in ConflictResolutions, field string) {
			t.Helper()
			_, err := f.svc.ResolveChangeRequestConflicts(ctx, f.u, f.space, mine, in)
			var qe *quire.Error
			if !errors.As(err, &qe) || qe.Code != quire.EINVALID || qe.Field != field {
				t.Fatalf("%s: %v, want EINVALID on %s", name, err, field)
			}
			after, _ := f.svc.ChangeRequest(ctx, f.space, mine)
			if after.Revision != before.Revision {
				t.Fatalf("%s: the change request moved", name)
			}
		}
		with := func(id string, c ConflictChoice) map[string]ConflictChoice {
			m := map[string]ConflictChoice{}
			for k, v := range all {
				m[k] = v
			}
			m[id] = c
			return m
		}
		first := got.Conflicts[0].ID
		check("unknown id", ConflictResolutions{Main: got.Main, Revision: got.Revision, Choices: with("page/nope/document/x", ConflictChoice{Take: content.TakeOurs})}, "choice[page/nope/document/x]")
		check("missing choice", ConflictResolutions{Main: got.Main, Revision: got.Revision, Choices: map[string]ConflictChoice{first: {Take: content.TakeOurs}}}, "choice["+got.Conflicts[1].ID+"]")
		check("empty choice", ConflictResolutions{Main: got.Main, Revision: got.Revision, Choices: with(first, ConflictChoice{})}, "choice["+first+"]")
		check("bad choice", ConflictResolutions{Main: got.Main, Revision: got.Revision, Choices: with(first, ConflictChoice{Take: "both"})}, "choice["+first+"]")
		check("block not in conflict", ConflictResolutions{Main: got.Main, Revision: got.Revision, Choices: with("page/"+got.Conflicts[0].Page+"/document/"+keys[2], ConflictChoice{Take: content.TakeOurs})}, "choice[page/"+got.Conflicts[0].Page+"/document/"+keys[2]+"]")
		check("no main", ConflictResolutions{Revision: got.Revision, Choices: all}, "main")

		// Main moves while the person chooses: nothing is written, and the
		// conflicts as they are now come back.
		other := f.changeRequest(t, "Other", newPage("Other", "Text"))
		if out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, other); err != nil || out.Result != ResultMerge {
			t.Fatalf("merge: %v %+v", err, out)
		}
		out, err := f.svc.ResolveChangeRequestConflicts(ctx, f.u, f.space, mine, ConflictResolutions{Main: got.Main, Revision: got.Revision, Choices: all})
		if err != nil {
			t.Fatal(err)
		}
		if out.Result != ResultStale || out.Conflicts == nil || out.Conflicts.Main == got.Main || len(out.Conflicts.Conflicts) != 2 {
			t.Fatalf("stale outcome %+v", out)
		}
		if after, _ := f.svc.ChangeRequest(ctx, f.space, mine); after.Revision != before.Revision {
			t.Fatal("a stale resolution wrote")
		}
		// Against the new main it goes through.
		out, err = f.svc.ResolveChangeRequestConflicts(ctx, f.u, f.space, mine, ConflictResolutions{Main: out.Conflicts.Main, Revision: out.Conflicts.Revision, Choices: all})
		if err != nil || out.Result != ResultUpdate {
			t.Fatalf("resolve: %v %+v", err, out)
		}
	})
}

func TestRestoreRevisions(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		_, page, keys := conflictSetup(t, f)
		hist, _, err := f.svc.SpaceHistory(ctx, f.space, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		// hist[0] is main's edit; hist[1] the first merge.
		old := hist[1].Revision
		cr, err := f.svc.RestorePageRevision(ctx, f.u, f.space, page, old.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(cr.Subject, "Restore Guide to ") {
			t.Fatalf("subject %q", cr.Subject)
		}
		want := []string{keys[0] + "=One", keys[1] + "=Two", keys[2] + "=Three"}
		if got := f.blocksOf(t, cr.ID, page); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("restored page %q, want %q", got, want)
		}
		whole, err := f.svc.RestoreSpaceRevision(ctx, f.u, f.space, old.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(whole.Subject, "Restore Busy to ") {
			t.Fatalf("subject %q", whole.Subject)
		}
		pages, err := f.svc.ChangeRequestPages(ctx, f.space, whole.ID)
		if err != nil {
			t.Fatal(err)
		}
		changes := map[string]string{}
		for _, p := range pages {
			changes[p.Title] = p.Change
		}
		if changes["Extra"] != PageRemoved || changes["Guide"] == "" || len(changes) != 2 {
			t.Fatalf("restore of the space changes %v", changes)
		}
		if got := f.blocksOf(t, whole.ID, page); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("restored space's page %q", got)
		}
		// Bad input writes nothing.
		for _, rev := range []string{"", "nope"} {
			_, err := f.svc.RestoreSpaceRevision(ctx, f.u, f.space, rev)
			if quire.ErrorCode(err) != quire.EINVALID {
				t.Fatalf("revision %q: %v", rev, err)
			}
			_, err = f.svc.RestorePageRevision(ctx, f.u, f.space, page, rev)
			if quire.ErrorCode(err) != quire.EINVALID {
				t.Fatalf("page at revision %q: %v", rev, err)
			}
		}
		if _, err := f.svc.RestorePageRevision(ctx, f.u, f.space, "nope", old.ID); quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("unknown page: %v", err)
		}
		sp, _ := f.svc.Space(ctx, f.space)
		if _, err := f.svc.RestoreSpaceRevision(ctx, f.u, f.space, sp.Revision); quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("current revision: %v", err)
		}
		list, err := f.svc.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: f.space}, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(list.Items); n != 5 {
			t.Fatalf("%d change requests, want the 3 of the setup and 2 restores", n)
		}
	})
}
