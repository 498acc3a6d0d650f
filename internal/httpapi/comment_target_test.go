package httpapi

import (
	"net/http"
	"testing"
)

func TestCommentOutdatedOnSpace(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		cs := ts.newCommentSpace(t)
		base, token := spaceCommentsPath(cs.Space), ts.token(cComment)
		onDetails := str(ts.postComment(t, token, base, md("On details"), "page", cs.Page, "node", cs.Details), "id")
		onIntro := str(ts.postComment(t, token, base, md("On intro"), "page", cs.Page, "node", cs.Intro), "id")
		onPage := str(ts.postComment(t, token, base, md("On the page"), "page", cs.Page), "id")
		page := func(id string) map[string]any {
			t.Helper()
			p, _ := field(ts.must(t, 200, "GET", base+"/"+id, ts.token(cRead), nil), "target.page").(map[string]any)
			return p
		}
		outdated := func(want map[string]bool) {
			t.Helper()
			for id, w := range want {
				if got := page(id)["outdated"]; got != w {
					t.Errorf("comment %s: outdated %v, want %v", id, got, w)
				}
			}
		}
		outdated(map[string]bool{onDetails: false, onIntro: false, onPage: false})

		// A change request removes the commented block: main content, and
		// so the space's comments, change only when it merges.
		cr := str(ts.newChangeRequest(t, cs.Space, "Trim"), "id")
		ts.writeContent(t, cs.Space, cr, updatePage(cs.Page, "document", md("Intro.")))
		outdated(map[string]bool{onDetails: false, onIntro: false, onPage: false})
		ts.mergeCR(t, cs.Space, cr)
		outdated(map[string]bool{onDetails: true, onIntro: false, onPage: false})

		// The target reports the page as it is now.
		cr = str(ts.newChangeRequest(t, cs.Space, "Rename"), "id")
		ts.writeContent(t, cs.Space, cr, updatePage(cs.Page, "title", "Handbook", "slug", "handbook", "emoji", "1f4d8"))
		ts.mergeCR(t, cs.Space, cr)
		wantFields(t, page(onIntro), map[string]any{"id": cs.Page, "title": "Handbook", "path": "handbook",
			"emoji": "1f4d8", "outdated": false})

		// Once the page is gone, every comment on it is outdated and keeps
		// the title and path the page had when it was posted.
		cr = str(ts.newChangeRequest(t, cs.Space, "Remove"), "id")
		ts.writeContent(t, cs.Space, cr, deletePage(cs.Page))
		ts.mergeCR(t, cs.Space, cr)
		outdated(map[string]bool{onDetails: true, onIntro: true, onPage: true})
		gone := page(onPage)
		wantFields(t, gone, map[string]any{"id": cs.Page, "title": "Guide", "path": "guide"})
		wantAbsent(t, gone, "createdAt")
		wantAbsent(t, gone, "emoji")

		// Comments can no longer be posted on it.
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "POST", base, token,
			map[string]any{"body": md("Late"), "page": cs.Page}), "page")
	})
}

func TestCommentOutdatedOnChangeRequest(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		cs := ts.newCommentSpace(t)
		crBase, spaceBase := crCommentsPath(cs.Space, cs.CR), spaceCommentsPath(cs.Space)
		token := ts.token(cComment)
		inCR := str(ts.postComment(t, token, crBase, md("On details"), "page", cs.Page, "node", cs.Details), "id")
		inSpace := str(ts.postComment(t, token, spaceBase, md("On details"), "page", cs.Page, "node", cs.Details), "id")
		outdated := func(base, id string) any {
			t.Helper()
			return field(ts.must(t, 200, "GET", base+"/"+id, ts.token(cRead), nil), "target.page.outdated")
		}

		// Writing the change request's content outdates its comment, not
		// the space's.
		ts.writeContent(t, cs.Space, cs.CR, updatePage(cs.Page, "document", md("Intro.")))
		if got := outdated(crBase, inCR); got != true {
			t.Errorf("change request comment: outdated %v after its block was removed", got)
		}
		if got := outdated(spaceBase, inSpace); got != false {
			t.Errorf("space comment: outdated %v while main content kept the block", got)
		}
		// The revision the comment was made on stays.
		c := ts.must(t, 200, "GET", crBase+"/"+inCR, ts.token(cRead), nil)
		if str(c, "target.revision") == ts.crRevision(t, cs.Space, cs.CR) {
			t.Error("target.revision moved with the change request")
		}

		// Pages of the change request take comments there only.
		res := ts.writeContent(t, cs.Space, cs.CR, insertPage("Draft", "Draft text."))
		draft := changedPage(t, res, 0)
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "POST", spaceBase, token,
			map[string]any{"body": md("x"), "page": draft}), "space's content")
		onDraft := ts.postComment(t, token, crBase, md("On the draft"), "page", draft)
		wantFields(t, onDraft, map[string]any{"target.page.title": "Draft", "target.page.path": "draft",
			"target.page.outdated": false, "target.changeRequest": cs.CR})
		key := ts.blockKeys(t, crPath(cs.Space, cs.CR, ""), draft)[0]
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "POST", spaceBase, token,
			map[string]any{"body": md("x"), "page": cs.Page, "node": key}), "node")
		ts.postComment(t, token, crBase, md("On the block"), "page", draft, "node", key)
	})
}

func TestCommentOnTableCell(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Tables")
		cr := str(ts.newChangeRequest(t, sp, "Table"), "id")
		res := ts.writeContent(t, sp, cr, insertPage("Plans", "Before.\n\n| Plan | Price |\n|---|---|\n| Free | 0 |\n| Pro | 10 |\n"))
		pg := changedPage(t, res, 0)
		keys := ts.blockKeys(t, crPath(sp, cr, ""), pg)
		para, table := keys[0], keys[1]
		base, token := crCommentsPath(sp, cr), ts.token(cComment)
		cell := func(record, definition string) map[string]any {
			return map[string]any{"record": record, "definition": definition}
		}
		first := ts.postComment(t, token, base, md("Free?"), "page", pg, "node", table, "tableCell", cell("r1", "c1"))
		wantFields(t, first, map[string]any{"target.tableCell": cell("r1", "c1"), "target.node.id": table,
			"target.page.outdated": false})
		second := ts.postComment(t, token, base, md("Pro?"), "page", pg, "node", table, "tableCell", cell("r2", "c2"))
		for _, c := range []struct {
			name string
			body map[string]any
			word string
		}{
			{"unknown record", map[string]any{"page": pg, "node": table, "tableCell": cell("r9", "c1")}, "tableCell"},
			{"unknown column", map[string]any{"page": pg, "node": table, "tableCell": cell("r1", "c9")}, "tableCell"},
			{"not a table", map[string]any{"page": pg, "node": para, "tableCell": cell("r1", "c1")}, "tableCell"},
			{"no node", map[string]any{"page": pg, "tableCell": cell("r1", "c1")}, "node"},
		} {
			c.body["body"] = md("x")
			wantContains(t, ts.mustError(t, http.StatusBadRequest, "POST", base, token, c.body), c.word)
		}

		// Removing the second row outdates the comment on its cell only.
		ts.writeContent(t, sp, cr, updatePage(pg, "document", md("Before.\n\n| Plan | Price |\n|---|---|\n| Free | 0 |\n")))
		if got := ts.blockKeys(t, crPath(sp, cr, ""), pg)[1]; got != table {
			t.Fatalf("the table's key changed from %s to %s", table, got)
		}
		for id, want := range map[string]bool{str(first, "id"): false, str(second, "id"): true} {
			got := field(ts.must(t, 200, "GET", base+"/"+id, ts.token(cRead), nil), "target.page.outdated")
			if got != want {
				t.Errorf("comment %s: outdated %v, want %v", id, got, want)
			}
		}
	})
}
