package httpapi

import (
	"net/http"
	"slices"
	"testing"
)

// getCR reads a change request as the admin.
func (ts *testServer) getCR(t *testing.T, space, cr string) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusOK, "GET", crPath(space, cr, ""), ts.token(cAdmin), nil)
}

// seedPage merges a change request that adds one page to main and returns
// the page's id.
func (ts *testServer) seedPage(t *testing.T, space, title, markdown string) string {
	t.Helper()
	cr := str(ts.newChangeRequest(t, space, "Seed "+title), "id")
	id := changedPage(t, ts.writeContent(t, space, cr, insertPage(title, markdown)), 0)
	ts.mergeCR(t, space, cr)
	return id
}

func TestMergeChangeRequest(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin, editor := ts.token(cAdmin), ts.token(cEdit)
		sp := ts.newSpace(t, "Guide")
		spaceBase := "/v1/spaces/" + sp
		wantFields(t, ts.crCounters(t, sp), counts(0, 0, 0))

		cr := str(ts.newChangeRequest(t, sp, "Welcome page"), "id")
		wantFields(t, ts.crCounters(t, sp), counts(1, 0, 1))
		res := ts.writeContent(t, sp, cr,
			insertPage("Welcome", "Hello.", "ref", "w"),
			insertPage("Details", "More.", "into", "w"),
			insertFiles(inlineFile("logo.png", pngBytes(t, 4, 4))))
		welcome, file := changedPage(t, res, 0), insertedFileID(t, res, 0)
		crRev := str(res, "changeRequest.revision")
		ts.must(t, 200, "PATCH", crPath(sp, cr, ""), admin, map[string]any{"status": "open"})
		wantFields(t, ts.crCounters(t, sp), counts(1, 1, 0))
		other := str(ts.newChangeRequest(t, sp, "Other"), "id")
		wantFields(t, ts.crCounters(t, sp), counts(2, 1, 1))
		wantFields(t, ts.getCR(t, sp, other), map[string]any{"outdated": false})
		main0 := ts.spaceRevision(t, sp)

		// An editor merges it.
		res = ts.must(t, 200, "POST", crPath(sp, cr, "/merge"), editor, nil)
		merged := str(res, "revision")
		wantFields(t, res, map[string]any{"result": "merge"})
		wantAbsent(t, res, "conflicts")
		if merged == "" || merged == main0 || merged == crRev {
			t.Fatalf("merge revision %q (main was %s, change request %s)", merged, main0, crRev)
		}
		if got := ts.spaceRevision(t, sp); got != merged {
			t.Errorf("space revision %s, want the merge revision %s", got, merged)
		}
		wantFields(t, ts.crCounters(t, sp), counts(2, 0, 1))

		m := ts.getCR(t, sp, cr)
		wantFields(t, m, map[string]any{"status": "merged", "revisionMerged": merged, "revision": crRev,
			"revisionInitial": main0, "outdated": false})
		wantAbsent(t, m, "revisionMergedAncestor")
		wantFields(t, ts.getCR(t, sp, other), map[string]any{"outdated": true, "status": "draft"})

		// Main's revision is a merge of both sides.
		rev := ts.must(t, 200, "GET", spaceBase+"/content", ts.token(cRead), nil)
		wantFields(t, rev, map[string]any{"id": merged, "type": "merge", "parents": []string{main0, crRev},
			"mergedFrom.object": "change-request", "mergedFrom.id": cr, "mergedFrom.number": 1,
			"mergedFrom.status": "merged", "mergedFrom.revisionMerged": merged, "mergedFrom.subject": "Welcome page",
			"files.0.id": file, "files.0.dimensions": map[string]any{"width": 4, "height": 4}})
		wantOutline(t, "main after merge", rev["pages"], "welcome Welcome", "  welcome/details Details")
		if byID := ts.must(t, 200, "GET", spaceBase+"/revisions/"+merged, ts.token(cRead), nil); !jsonEqual(byID, rev) {
			t.Errorf("getRevisionById differs from getCurrentRevision:\n%v\n%v", byID, rev)
		}
		if got := ts.pageMarkdown(t, spaceBase, welcome); got != "Hello.\n" {
			t.Errorf("merged page: %q", got)
		}
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/content/path/welcome/details", ts.token(cRead), nil),
			map[string]any{"title": "Details"})
		ts.must(t, 200, "GET", spaceBase+"/content/files/"+file, ts.token(cRead), nil)
		// The revisions before stay as they were.
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/revisions/"+main0, admin, nil), map[string]any{"pages": []any{}, "type": "edits"})

		// A merged change request takes nothing more.
		for _, c := range []struct {
			path string
			body any
		}{
			{"/merge", nil},
			{"/update", nil},
			{"/content", map[string]any{"changes": []any{insertPage("Late", "Too late.")}}},
		} {
			wantContains(t, ts.mustError(t, 400, "POST", crPath(sp, cr, c.path), admin, c.body), "merged")
		}
		wantContains(t, ts.mustError(t, 400, "PATCH", crPath(sp, cr, ""), admin, map[string]any{"status": "open"}), "merged")
		if got := ts.spaceRevision(t, sp); got != merged {
			t.Errorf("space revision moved to %s after refused calls", got)
		}
		wantFields(t, ts.crCounters(t, sp), counts(2, 0, 1))
		l := ts.must(t, 200, "GET", spaceBase+"/change-requests?status=merged", admin, nil)
		if got := listIDs(t, l); !slices.Equal(got, []string{cr}) {
			t.Errorf("merged change requests: %v", got)
		}

		// An archived change request is not merged; merging by number works.
		ts.writeContent(t, sp, other, insertPage("Other", "Other."))
		ts.must(t, 200, "PATCH", crPath(sp, other, ""), admin, map[string]any{"status": "archived"})
		wantFields(t, ts.crCounters(t, sp), counts(2, 0, 0))
		wantContains(t, ts.mustError(t, 400, "POST", crPath(sp, other, "/merge"), admin, nil), "archived")
		ts.must(t, 200, "PATCH", crPath(sp, other, ""), admin, map[string]any{"status": "draft"})
		wantFields(t, ts.crCounters(t, sp), counts(2, 0, 1))
		res = ts.must(t, 200, "POST", crPath(sp, "2", "/merge"), admin, nil)
		wantFields(t, res, map[string]any{"result": "merge"})
		wantFields(t, ts.crCounters(t, sp), counts(2, 0, 0))
		wantOutline(t, "main after the second merge", ts.must(t, 200, "GET", spaceBase+"/content/pages", admin, nil)["pages"],
			"welcome Welcome", "  welcome/details Details", "other Other")
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/content", admin, nil), map[string]any{
			"parents": []string{merged, ts.crRevision(t, sp, other)}, "mergedFrom.id": other})

		ts.mustError(t, 404, "POST", crPath(sp, "99", "/merge"), admin, nil)
		ts.mustError(t, 404, "POST", crPath(sp, "99", "/update"), admin, nil)
		ts.mustError(t, 403, "POST", crPath(sp, cr, "/merge"), ts.token(cReview), nil)
	})
}

func TestUpdateChangeRequestAndOutdated(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Guide")
		spaceBase := "/v1/spaces/" + sp
		doc := ts.seedPage(t, sp, "Doc", "Alpha\n\nBeta\n\nGamma")
		main1 := ts.spaceRevision(t, sp)

		a := str(ts.newChangeRequest(t, sp, "A"), "id")
		b := str(ts.newChangeRequest(t, sp, "B"), "id")
		ts.writeContent(t, sp, a, updatePage(doc, "document", md("Alpha by A\n\nBeta\n\nGamma")))
		bRev := str(ts.writeContent(t, sp, b, updatePage(doc, "document", md("Alpha\n\nBeta\n\nGamma by B")),
			insertPage("B notes", "From B.")), "changeRequest.revision")

		// Up to date: an update changes nothing.
		wantFields(t, ts.getCR(t, sp, b), map[string]any{"outdated": false})
		res := ts.must(t, 200, "POST", crPath(sp, b, "/update"), admin, nil)
		wantFields(t, res, map[string]any{"result": "update", "revision": bRev})
		wantFields(t, ts.getCR(t, sp, b), map[string]any{"revision": bRev, "outdated": false})
		wantAbsent(t, ts.getCR(t, sp, b), "revisionMergedAncestor")

		// A merges: B is outdated.
		main2 := str(ts.mergeCR(t, sp, a), "revision")
		wantFields(t, ts.getCR(t, sp, b), map[string]any{"outdated": true})
		wantFields(t, ts.getCR(t, sp, a), map[string]any{"outdated": false})

		// The update pulls main in as a new revision of type update.
		res = ts.must(t, 200, "POST", crPath(sp, b, "/update"), ts.token(cEdit), nil)
		upd := str(res, "revision")
		wantFields(t, res, map[string]any{"result": "update"})
		wantAbsent(t, res, "conflicts")
		if upd == bRev || upd == main2 {
			t.Fatalf("update revision %s (change request was %s, main %s)", upd, bRev, main2)
		}
		wantFields(t, ts.getCR(t, sp, b), map[string]any{"outdated": false, "revision": upd,
			"revisionMergedAncestor": main2, "revisionInitial": main1, "status": "draft"})
		crBase := crPath(sp, b, "")
		wantFields(t, ts.must(t, 200, "GET", crBase+"/content", admin, nil), map[string]any{
			"id": upd, "type": "update", "parents": []string{bRev, main2}})
		if got := ts.pageMarkdown(t, crBase, doc); got != "Alpha by A\n\nBeta\n\nGamma by B\n" {
			t.Errorf("change request after update: %q", got)
		}
		if got := ts.pageMarkdown(t, spaceBase, doc); got != "Alpha by A\n\nBeta\n\nGamma\n" {
			t.Errorf("main is changed by an update: %q", got)
		}
		// Updating again changes nothing.
		wantFields(t, ts.must(t, 200, "POST", crPath(sp, b, "/update"), admin, nil), map[string]any{"result": "update", "revision": upd})
		wantFields(t, ts.getCR(t, sp, b), map[string]any{"revision": upd})

		// B merges with both changes kept.
		main3 := str(ts.mergeCR(t, sp, b), "revision")
		if got := ts.pageMarkdown(t, spaceBase, doc); got != "Alpha by A\n\nBeta\n\nGamma by B\n" {
			t.Errorf("main after both merges: %q", got)
		}
		wantOutline(t, "main after both merges", ts.must(t, 200, "GET", spaceBase+"/content/pages", admin, nil)["pages"],
			"doc Doc", "b-notes B notes")
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/content", admin, nil), map[string]any{
			"id": main3, "type": "merge", "parents": []string{main2, upd}})

		// Without an update, a merge of a change request behind main keeps
		// both sides' work as well.
		c := str(ts.newChangeRequest(t, sp, "C"), "id")
		d := str(ts.newChangeRequest(t, sp, "D"), "id")
		ts.writeContent(t, sp, c, updatePage(doc, "document", md("Alpha by A\n\nBeta by C\n\nGamma by B")))
		ts.writeContent(t, sp, d, updatePage(doc, "title", "Document"), deletePage(str(findPage(
			ts.must(t, 200, "GET", spaceBase+"/content/pages", admin, nil)["pages"], "b-notes"), "id")))
		ts.mergeCR(t, sp, c)
		wantFields(t, ts.getCR(t, sp, d), map[string]any{"outdated": true})
		ts.mergeCR(t, sp, d)
		wantOutline(t, "main after C and D", ts.must(t, 200, "GET", spaceBase+"/content/pages", admin, nil)["pages"], "doc Document")
		if got := ts.pageMarkdown(t, spaceBase, doc); got != "Alpha by A\n\nBeta by C\n\nGamma by B\n" {
			t.Errorf("main after C and D: %q", got)
		}
	})
}

func TestMergeConflicts(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Guide")
		spaceBase := "/v1/spaces/" + sp
		doc := ts.seedPage(t, sp, "Doc", "Alpha\n\nBeta\n\nGamma")
		keys := blockKeys(t, ts.must(t, 200, "GET", spaceBase+"/content/page/"+doc, admin, nil)["document"])

		a := str(ts.newChangeRequest(t, sp, "A"), "id")
		b := str(ts.newChangeRequest(t, sp, "B"), "id")
		ts.writeContent(t, sp, a, updatePage(doc, "document", md("Alpha\n\nBeta by A\n\nGamma")))
		bRev := str(ts.writeContent(t, sp, b, updatePage(doc, "document", md("Alpha\n\nBeta by B\n\nGamma"))), "changeRequest.revision")
		mainA := str(ts.mergeCR(t, sp, a), "revision")

		// The same paragraph edited differently: the merge names the page
		// and the block, and changes nothing.
		res := ts.must(t, 200, "POST", crPath(sp, b, "/merge"), admin, nil)
		wantFields(t, res, map[string]any{"result": "conflicts", "revision": mainA})
		conflicts, _ := res["conflicts"].([]any)
		if len(conflicts) != 1 {
			t.Fatalf("conflicts: %v", res["conflicts"])
		}
		wantFields(t, conflicts[0].(map[string]any), map[string]any{"page": doc, "field": "document", "block": keys[1]})
		if str(conflicts[0], "reason") == "" {
			t.Errorf("conflict without a reason: %v", conflicts[0])
		}
		if got := ts.spaceRevision(t, sp); got != mainA {
			t.Errorf("space revision moved on a conflict: %s", got)
		}
		if got := ts.pageMarkdown(t, spaceBase, doc); got != "Alpha\n\nBeta by A\n\nGamma\n" {
			t.Errorf("main after a conflicting merge: %q", got)
		}
		cr := ts.getCR(t, sp, b)
		wantFields(t, cr, map[string]any{"status": "draft", "revision": bRev, "outdated": true})
		wantAbsent(t, cr, "revisionMerged")
		wantFields(t, ts.crCounters(t, sp), counts(3, 0, 1))

		// An update conflicts the same way and leaves the change request
		// as it was.
		res = ts.must(t, 200, "POST", crPath(sp, b, "/update"), admin, nil)
		wantFields(t, res, map[string]any{"result": "conflicts", "revision": bRev})
		wantFields(t, res, map[string]any{"conflicts.0.page": doc, "conflicts.0.block": keys[1]})
		wantFields(t, ts.getCR(t, sp, b), map[string]any{"revision": bRev, "outdated": true})
		wantAbsent(t, ts.getCR(t, sp, b), "revisionMergedAncestor")

		// Metadata conflicts name the field.
		c := str(ts.newChangeRequest(t, sp, "C"), "id")
		ts.writeContent(t, sp, c, updatePage(doc, "title", "Title by C"))
		e := str(ts.newChangeRequest(t, sp, "E"), "id")
		ts.writeContent(t, sp, e, updatePage(doc, "title", "Title by E"))
		ts.mergeCR(t, sp, c)
		res = ts.must(t, 200, "POST", crPath(sp, e, "/merge"), admin, nil)
		wantFields(t, res, map[string]any{"result": "conflicts", "conflicts.0.page": doc, "conflicts.0.field": "title"})
		wantAbsent(t, res, "conflicts.0.block")

		// Resolving: B takes A's text for the paragraph, then both merge.
		ts.writeContent(t, sp, b, updatePage(doc, "document", md("Alpha\n\nBeta by A\n\nGamma, also by B")))
		res = ts.must(t, 200, "POST", crPath(sp, b, "/update"), admin, nil)
		wantFields(t, res, map[string]any{"result": "update"})
		ts.mergeCR(t, sp, b)
		if got := ts.pageMarkdown(t, spaceBase, doc); got != "Alpha\n\nBeta by A\n\nGamma, also by B\n" {
			t.Errorf("main after the resolved merge: %q", got)
		}
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/content/page/"+doc, admin, nil), map[string]any{"title": "Title by C"})
	})
}
