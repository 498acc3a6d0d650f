package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/quire"
)

// outline renders a page tree as one "path title" line per page, children
// indented under their parent.
func outline(pages any) []string {
	out := []string{}
	var walk func(list any, depth int)
	walk = func(list any, depth int) {
		l, _ := list.([]any)
		for _, p := range l {
			out = append(out, strings.Repeat("  ", depth)+str(p, "path")+" "+str(p, "title"))
			walk(field(p, "pages"), depth+1)
		}
	}
	walk(pages, 0)
	return out
}

// findPage returns the page of a tree with the given path, or nil.
func findPage(pages any, path string) map[string]any {
	l, _ := pages.([]any)
	for _, p := range l {
		m, _ := p.(map[string]any)
		if str(m, "path") == path {
			return m
		}
		if found := findPage(m["pages"], path); found != nil {
			return found
		}
	}
	return nil
}

// wantOutline checks a page tree.
func wantOutline(t *testing.T, what string, pages any, want ...string) {
	t.Helper()
	if got := outline(pages); !slices.Equal(got, want) {
		t.Errorf("%s:\ngot  %q\nwant %q", what, got, want)
	}
}

// hasKeyDeep reports whether a decoded JSON value holds key at any depth.
func hasKeyDeep(v any, key string) bool {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[key]; ok {
			return true
		}
		for _, c := range x {
			if hasKeyDeep(c, key) {
				return true
			}
		}
	case []any:
		for _, c := range x {
			if hasKeyDeep(c, key) {
				return true
			}
		}
	}
	return false
}

// withoutKeys returns a copy of a decoded document without its block keys.
func withoutKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			if k != "key" {
				out[k] = withoutKeys(c)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = withoutKeys(c)
		}
		return out
	}
	return v
}

// blockKeys lists the keys of a document's top-level blocks.
func blockKeys(t *testing.T, doc any) []string {
	t.Helper()
	nodes, _ := field(doc, "nodes").([]any)
	var keys []string
	for _, n := range nodes {
		k := str(n, "key")
		if k == "" {
			t.Fatalf("block without key: %v", n)
		}
		keys = append(keys, k)
	}
	return keys
}

func TestContentWriteAndRead(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin, reader := ts.token(cAdmin), ts.token(cRead)
		sp := ts.newSpace(t, "Guide")
		spaceBase := "/v1/spaces/" + sp
		main0 := ts.spaceRevision(t, sp)
		cr := str(ts.newChangeRequest(t, sp, "Write pages"), "id")
		crBase := crPath(sp, cr, "")

		res := ts.writeContentAs(t, ts.token(cEdit), sp, cr,
			insertPage("Getting started", "# Start\n\nWelcome.", "ref", "gs", "emoji", "1f44b", "description", "First steps"),
			insertPage("Install", "Install it.", "ref", "install", "into", "gs"),
			insertPage("Configure", "Configure it.", "ref", "configure", "into", "gs", "at", 0),
			insertPage("FAQ", "Questions.", "ref", "faq"),
			insertPage("Answers", "One.", "into", "faq"),
			insertPage("Answers", "Two.", "into", "faq"),
			insertPage("Preface", "Read me first.", "at", 0, "hidden", true),
		)
		ids := map[string]string{}
		for i, ref := range []string{"gs", "install", "configure", "faq", "answers", "answers-1", "preface"} {
			ids[ref] = changedPage(t, res, i)
			c := field(res, "changes."+itoa(i)).(map[string]any)
			wantFields(t, c, map[string]any{"object": "created_page", "page.object": "page",
				"page.urls.location": testBaseURL + crBase + "/content/page/" + ids[ref]})
			if i < 4 {
				wantFields(t, c, map[string]any{"ref": ref})
			} else {
				wantAbsent(t, c, "ref")
			}
		}
		wantAbsent(t, res, "insertedFiles")
		rev1 := str(res, "changeRequest.revision")
		wantFields(t, res, map[string]any{"changeRequest.id": cr, "changeRequest.object": "change-request",
			"changeRequest.revisionInitial": main0})
		if rev1 == main0 || rev1 == "" {
			t.Fatalf("the change request's revision did not move: %q", rev1)
		}
		// The writer became a contributor.
		l := ts.must(t, 200, "GET", spaceBase+"/change-requests?status=draft&contributor="+ts.user(cEdit).ID, admin, nil)
		if got := listIDs(t, l); !slices.Equal(got, []string{cr}) {
			t.Errorf("change requests the editor contributed to: %v", got)
		}

		tree1 := []string{
			"preface Preface",
			"getting-started Getting started",
			"  getting-started/configure Configure",
			"  getting-started/install Install",
			"faq FAQ",
			"  faq/answers Answers",
			"  faq/answers-1 Answers",
		}
		rev := ts.must(t, 200, "GET", crBase+"/content", reader, nil)
		wantFields(t, rev, map[string]any{"object": "revision", "id": rev1, "parents": []string{main0}, "type": "edits",
			"files": []any{}, "reusableContents": []any{}, "variables": map[string]any{},
			"urls.app": testBaseURL + "/app/s/" + sp + "/~/revisions/" + rev1})
		wantTimestamp(t, rev, "createdAt")
		wantAbsent(t, rev, "mergedFrom")
		wantOutline(t, "change request content", rev["pages"], tree1...)
		gs := findPage(rev["pages"], "getting-started")
		wantFields(t, gs, map[string]any{"id": ids["gs"], "kind": "sheet", "type": "document", "slug": "getting-started",
			"emoji": "1f44b", "description": "First steps", "hidden": false,
			"urls.app": testBaseURL + "/app/s/" + sp + "/getting-started",
			"layout": map[string]any{"width": "default", "cover": true, "coverSize": "hero", "title": true, "description": true,
				"tableOfContents": true, "outline": true, "pagination": true, "metadata": true}})
		wantTimestamp(t, gs, "createdAt")
		wantTimestamp(t, gs, "updatedAt")
		wantFields(t, findPage(rev["pages"], "preface"), map[string]any{"hidden": true})
		for _, k := range []string{"markdown", "document", "git"} {
			if hasKeyDeep(rev["pages"], k) {
				t.Errorf("page tree carries %q", k)
			}
		}
		pages := ts.must(t, 200, "GET", crBase+"/content/pages", reader, nil)
		if !jsonEqual(pages["pages"], rev["pages"]) {
			t.Errorf("listPagesInChangeRequest differs from the revision's pages:\n%v\n%v", pages["pages"], rev["pages"])
		}

		// The same revision by id.
		byID := ts.must(t, 200, "GET", spaceBase+"/revisions/"+rev1, reader, nil)
		if !jsonEqual(byID, rev) {
			t.Errorf("getRevisionById differs from the change request's content:\n%v\n%v", byID, rev)
		}
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/revisions/"+rev1+"/pages", reader, nil), map[string]any{"pages": rev["pages"]})

		// Main content is untouched until a merge.
		main := ts.must(t, 200, "GET", spaceBase+"/content", reader, nil)
		wantFields(t, main, map[string]any{"id": main0, "pages": []any{}, "files": []any{}, "parents": []any{}, "type": "edits"})
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/content/pages", reader, nil), map[string]any{"pages": []any{}})
		ts.mustError(t, 404, "GET", spaceBase+"/content/page/"+ids["gs"], reader, nil)
		ts.mustError(t, 404, "GET", spaceBase+"/content/path/getting-started", reader, nil)
		ts.mustError(t, 404, "GET", spaceBase+"/revisions/"+main0+"/page/"+ids["gs"], reader, nil)

		// One page, by id and by path, under the change request and the
		// revision: the same object, with its direct children.
		reads := []string{
			crBase + "/content/page/" + ids["gs"], crBase + "/content/path/getting-started",
			spaceBase + "/revisions/" + rev1 + "/page/" + ids["gs"], spaceBase + "/revisions/" + rev1 + "/path/getting-started",
		}
		first := ts.must(t, 200, "GET", reads[0], reader, nil)
		wantFields(t, first, map[string]any{"id": ids["gs"], "title": "Getting started", "path": "getting-started", "emoji": "1f44b"})
		wantOutline(t, "children of a page read", first["pages"], "getting-started/configure Configure", "getting-started/install Install")
		for _, p := range reads[1:] {
			if got := ts.must(t, 200, "GET", p, reader, nil); !jsonEqual(got, first) {
				t.Errorf("GET %s differs from GET %s:\n%v\n%v", p, reads[0], got, first)
			}
		}
		// Document format by default and on request; Markdown on request.
		doc := first["document"]
		wantAbsent(t, first, "markdown")
		wantFields(t, first, map[string]any{"document.object": "document", "document.data.schemaVersion": 1,
			"document.nodes.0.type": "heading-1", "document.nodes.1.type": "paragraph"})
		if keys := blockKeys(t, doc); len(keys) != 2 || keys[0] == keys[1] {
			t.Errorf("block keys %v", keys)
		}
		if got := ts.must(t, 200, "GET", reads[0]+"?format=document", reader, nil); !jsonEqual(got["document"], doc) {
			t.Errorf("format=document: %v, want %v", got["document"], doc)
		}
		for _, p := range reads {
			m := ts.must(t, 200, "GET", p+"?format=markdown", reader, nil)
			wantFields(t, m, map[string]any{"markdown": "# Start\n\nWelcome.\n", "id": ids["gs"]})
			wantAbsent(t, m, "document")
		}
		for path, want := range map[string]string{
			"getting-started/install": "Install it.\n", "getting-started/configure": "Configure it.\n",
			"faq/answers": "One.\n", "faq/answers-1": "Two.\n", "preface": "Read me first.\n",
		} {
			wantFields(t, ts.must(t, 200, "GET", crBase+"/content/path/"+path+"?format=markdown", reader, nil),
				map[string]any{"path": path, "markdown": want})
		}
		ts.mustError(t, 404, "GET", crBase+"/content/path/install", reader, nil)
		ts.mustError(t, 404, "GET", crBase+"/content/path/getting-started/nosuchpage", reader, nil)
		ts.mustError(t, 404, "GET", crBase+"/content/page/nosuchpage", reader, nil)

		// Titles, slugs and emoji change; pages move; paths follow the tree.
		res = ts.writeContent(t, sp, cr,
			updatePage(ids["gs"], "title", "Quick start", "emoji", "1f680"),
			updatePage(ids["faq"], "slug", "questions"),
			updatePage(ids["install"], "into", nil, "at", 0),
			updatePage(ids["configure"], "document", md("Configure it **well**.")),
			updatePage(ids["preface"], "into", ids["faq"], "at", 1, "hidden", false),
		)
		for i := range 5 {
			wantFields(t, field(res, "changes."+itoa(i)).(map[string]any), map[string]any{"object": "updated_page"})
		}
		rev2 := str(res, "changeRequest.revision")
		rev = ts.must(t, 200, "GET", crBase+"/content", reader, nil)
		wantFields(t, rev, map[string]any{"id": rev2, "parents": []string{rev1}})
		wantOutline(t, "after updates", rev["pages"],
			"install Install",
			"getting-started Quick start",
			"  getting-started/configure Configure",
			"questions FAQ",
			"  questions/answers Answers",
			"  questions/preface Preface",
			"  questions/answers-1 Answers",
		)
		wantFields(t, findPage(rev["pages"], "getting-started"), map[string]any{"emoji": "1f680", "slug": "getting-started"})
		wantFields(t, findPage(rev["pages"], "questions/preface"), map[string]any{"hidden": false})
		wantFields(t, ts.must(t, 200, "GET", crBase+"/content/path/questions/answers-1?format=markdown", reader, nil),
			map[string]any{"markdown": "Two.\n"})
		if got := ts.pageMarkdown(t, crBase, ids["configure"]); got != "Configure it **well**.\n" {
			t.Errorf("updated document: %q", got)
		}
		ts.mustError(t, 404, "GET", crBase+"/content/path/faq", reader, nil)
		// The earlier revision is unchanged.
		wantOutline(t, "first revision after updates", ts.must(t, 200, "GET", spaceBase+"/revisions/"+rev1, reader, nil)["pages"], tree1...)

		// Deleting a page deletes its subtree; the answer names it.
		res = ts.writeContent(t, sp, cr, deletePage(ids["gs"]))
		wantFields(t, res, map[string]any{"changes": []any{map[string]any{"object": "deleted_page", "page": ids["gs"]}}})
		wantOutline(t, "after delete", ts.must(t, 200, "GET", crBase+"/content/pages", reader, nil)["pages"],
			"install Install", "questions FAQ", "  questions/answers Answers", "  questions/preface Preface", "  questions/answers-1 Answers")
		for _, id := range []string{ids["gs"], ids["configure"]} {
			ts.mustError(t, 404, "GET", crBase+"/content/page/"+id, reader, nil)
			ts.must(t, 200, "GET", spaceBase+"/revisions/"+rev2+"/page/"+id, reader, nil)
		}

		// By default the answer is the change request itself.
		got := ts.must(t, 200, "POST", crBase+"/content", admin, map[string]any{"changes": []any{insertPage("Last", "End.")}})
		wantFields(t, got, map[string]any{"object": "change-request", "id": cr, "number": 1, "status": "draft"})
		if str(got, "revision") == str(res, "changeRequest.revision") {
			t.Errorf("revision did not move")
		}
		wantFields(t, ts.must(t, 200, "GET", crBase, reader, nil), map[string]any{"revision": got["revision"]})
		got = ts.must(t, 200, "POST", crBase+"/content?compat=true", admin, map[string]any{"changes": []any{updatePage(ids["install"], "title", "Installation")}})
		wantFields(t, got, map[string]any{"object": "change-request", "id": cr})

		// Change requests are named by number too; other spaces' ids are
		// not found.
		wantFields(t, ts.must(t, 200, "GET", crPath(sp, "1", "/content/page/"+ids["install"]), reader, nil), map[string]any{"title": "Installation"})
		other := ts.newSpace(t, "Other")
		ts.mustError(t, 404, "GET", "/v1/spaces/"+other+"/revisions/"+rev1, reader, nil)
		ts.mustError(t, 404, "GET", "/v1/spaces/"+other+"/revisions/"+rev1+"/pages", reader, nil)
		ts.mustError(t, 404, "GET", crPath(other, cr, "/content"), reader, nil)
		ts.mustError(t, 404, "POST", crPath(other, cr, "/content"), admin, map[string]any{"changes": []any{insertPage("X", "x")}})
		ts.mustError(t, 404, "GET", spaceBase+"/revisions/nosuchrevision", reader, nil)
		ts.mustError(t, 404, "POST", crPath(sp, "99", "/content"), admin, map[string]any{"changes": []any{insertPage("X", "x")}})
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/content", reader, nil), map[string]any{"id": main0, "pages": []any{}})
	})
}

// listIDs returns the ids of a list body, never nil.
func listIDs(t *testing.T, list map[string]any) []string {
	t.Helper()
	out := ids(t, list, "id")
	if out == nil {
		out = []string{}
	}
	return out
}

func TestContentRevertPage(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Guide")
		first := str(ts.newChangeRequest(t, sp, "First"), "id")
		res := ts.writeContent(t, sp, first, insertPage("Doc", "Alpha\n\nBeta\n\nGamma", "emoji", "1f4d8"))
		doc := changedPage(t, res, 0)
		v1 := str(res, "changeRequest.revision")
		ts.mergeCR(t, sp, first)

		cr := str(ts.newChangeRequest(t, sp, "Second"), "id")
		crBase := crPath(sp, cr, "")
		ts.writeContent(t, sp, cr, updatePage(doc, "title", "Doc v2", "emoji", "1f4d7", "document", md("Alpha 2\n\nBeta\n\nGamma 2")))
		res = ts.writeContent(t, sp, cr, revertPage(doc))
		wantFields(t, res, map[string]any{"changes.0.object": "reverted_page", "changes.0.page.id": doc})
		if got := ts.pageMarkdown(t, crBase, doc); got != "Alpha\n\nBeta\n\nGamma\n" {
			t.Errorf("reverted page: %q", got)
		}
		wantFields(t, ts.must(t, 200, "GET", crBase+"/content/page/"+doc, ts.token(cAdmin), nil),
			map[string]any{"title": "Doc", "emoji": "1f4d8", "path": "doc"})

		// Only some blocks, from a given revision.
		main := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content/page/"+doc, ts.token(cAdmin), nil)
		keys := blockKeys(t, main["document"])
		ts.writeContent(t, sp, cr, updatePage(doc, "document", md("Alpha 3\n\nBeta\n\nGamma 3")))
		ts.writeContent(t, sp, cr, revertPage(doc, "revision", v1, "block", []string{keys[0]}))
		if got := ts.pageMarkdown(t, crBase, doc); got != "Alpha\n\nBeta\n\nGamma 3\n" {
			t.Errorf("page with one block reverted: %q", got)
		}

		before := ts.crRevision(t, sp, cr)
		for _, c := range []struct {
			change map[string]any
			field  string
		}{
			{revertPage(doc, "revision", "nosuchrevision"), "changes[0].revision"},
			{revertPage(doc, "block", []string{"nosuchblock"}), "changes[0].block"},
			{revertPage("nosuchpage"), "changes[0].page"},
		} {
			wantContains(t, ts.mustError(t, 400, "POST", crBase+"/content", ts.token(cAdmin),
				map[string]any{"changes": []any{c.change}}), c.field)
		}
		if after := ts.crRevision(t, sp, cr); after != before {
			t.Errorf("a refused revert moved the change request from %s to %s", before, after)
		}
	})
}

func TestContentWriteIsAtomic(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		files := httptest.NewServer(http.NotFoundHandler())
		t.Cleanup(files.Close)
		sp := ts.newSpace(t, "Guide")
		cr := str(ts.newChangeRequest(t, sp, "Change"), "id")
		crBase := crPath(sp, cr, "")
		res := ts.writeContent(t, sp, cr,
			insertPage("Parent", "Parent text.", "ref", "p"),
			insertPage("Child", "Child text.", "into", "p"))
		parent, child := changedPage(t, res, 0), changedPage(t, res, 1)
		before := ts.must(t, 200, "GET", crBase+"/content", admin, nil)
		crBefore := ts.must(t, 200, "GET", crBase, admin, nil)

		for _, c := range []struct {
			name  string
			third map[string]any
			field string
		}{
			{"update of an unknown page", updatePage("nosuchpage", "title", "X"), "changes[2].page"},
			{"delete of an unknown page", deletePage("nosuchpage"), "changes[2].page"},
			{"insert into an unknown page", insertPage("X", "x", "into", "nosuchpage"), "into"},
			{"move under its own child", updatePage(parent, "into", child), "into"},
			{"file that cannot be fetched", insertFiles(map[string]any{"name": "gone.txt", "url": files.URL + "/gone.txt"}), "changes[2].files[0].url"},
			{"invalid document", map[string]any{"operation": "insert_page", "document": map[string]any{
				"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": "x"}}}, "changes[2].document"},
		} {
			body := map[string]any{"changes": []any{
				insertPage("New", "New text.", "ref", "n"),
				updatePage(parent, "title", "Renamed", "document", md("Changed.")),
				c.third,
			}}
			msg := ts.mustError(t, 400, "POST", crBase+"/content", admin, body)
			wantContains(t, msg, c.field)
			if after := ts.must(t, 200, "GET", crBase+"/content", admin, nil); !jsonEqual(after, before) {
				t.Errorf("%s: a failed batch changed the content:\n%v\n%v", c.name, after, before)
			}
			if after := ts.must(t, 200, "GET", crBase, admin, nil); !jsonEqual(after, crBefore) {
				t.Errorf("%s: a failed batch changed the change request:\n%v\n%v", c.name, after, crBefore)
			}
		}
		if got := ts.pageMarkdown(t, crBase, parent); got != "Parent text.\n" {
			t.Errorf("parent after failed batches: %q", got)
		}

		// Refs name pages inserted earlier in the batch.
		res = ts.writeContent(t, sp, cr,
			insertPage("A", "a", "ref", "a"),
			insertPage("B", "b", "ref", "b", "into", "a"),
			updatePage("a", "title", "A renamed"),
			updatePage("b", "into", nil),
			deletePage("a"))
		wantOutline(t, "after a batch using refs", ts.must(t, 200, "GET", crBase+"/content/pages", admin, nil)["pages"],
			"parent Parent", "  parent/child Child", "b B")
		wantFields(t, res, map[string]any{"changes.2.page.id": changedPage(t, res, 0), "changes.4.page": changedPage(t, res, 0)})
	})
}

func TestContentLockedSpace(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin, reader := ts.token(cAdmin), ts.token(cRead)
		sp := ts.newSpace(t, "Guide")
		f := ts.newContentFixture(t, sp)
		other := str(ts.newChangeRequest(t, sp, "Outdated"), "id")
		ts.mergeCR(t, sp, f.CR)
		spaceBefore, crBefore := ts.spaceRevision(t, sp), ts.crRevision(t, sp, other)

		ts.must(t, 200, "PATCH", "/v1/spaces/"+sp, admin, map[string]any{"editMode": "locked"})
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"POST", crPath(sp, other, "/content"), map[string]any{"changes": []any{insertPage("New", "Text.")}}},
			{"POST", crPath(sp, other, "/content?compat=false"), map[string]any{"changes": []any{deletePage(f.Page)}}},
			{"POST", "/v1/spaces/" + sp + "/content/template", map[string]any{"id": "product-docs"}},
			{"POST", crPath(sp, other, "/merge"), nil},
			{"POST", crPath(sp, other, "/update"), nil},
		} {
			wantContains(t, ts.mustError(t, 400, c.method, c.path, admin, c.body), "locked")
		}
		if got := ts.spaceRevision(t, sp); got != spaceBefore {
			t.Errorf("space revision moved while locked: %s → %s", spaceBefore, got)
		}
		if got := ts.crRevision(t, sp, other); got != crBefore {
			t.Errorf("change request revision moved while locked: %s → %s", crBefore, got)
		}
		wantFields(t, ts.must(t, 200, "GET", crPath(sp, other, ""), admin, nil), map[string]any{"status": "draft", "outdated": true})

		// Reads still work.
		for _, p := range []string{
			"/content", "/content/pages", "/content/files", "/content/files/" + f.File, "/content/page/" + f.Page,
			"/content/path/" + f.ChildPath, "/revisions/" + f.MainRevision, "/revisions/" + f.MainRevision + "/files/" + f.File,
			"/change-requests/" + other + "/content", "/change-requests/" + other + "/content/pages",
		} {
			ts.must(t, 200, "GET", "/v1/spaces/"+sp+p, reader, nil)
		}
		wantOutline(t, "main while locked", ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content/pages", reader, nil)["pages"],
			"guide Guide", "  guide/setup Setup", "draft Draft")

		ts.must(t, 200, "PATCH", "/v1/spaces/"+sp, admin, map[string]any{"editMode": "live"})
		ts.writeContent(t, sp, other, insertPage("New", "Text."))
		wantFields(t, ts.must(t, 200, "POST", crPath(sp, other, "/update"), admin, nil), map[string]any{"result": "update"})
	})
}

func TestContentFiles(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		reader := ts.token(cRead)
		img := pngBytes(t, 3, 2)
		notes := []byte("Release notes\nline two\n")
		served := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/notes.txt":
				w.Header().Set("Content-Type", "application/octet-stream")
				_, _ = w.Write(notes)
			case "/chart":
				_, _ = w.Write(img)
			default:
				http.NotFound(w, r)
			}
		}))
		t.Cleanup(served.Close)
		if !strings.HasPrefix(served.URL, "http://127.0.0.1:") {
			t.Fatalf("file server at %s, want 127.0.0.1", served.URL)
		}

		sp := ts.newSpace(t, "Files")
		spaceBase := "/v1/spaces/" + sp
		main0 := ts.spaceRevision(t, sp)
		cr := str(ts.newChangeRequest(t, sp, "Add files"), "id")
		crBase := crPath(sp, cr, "")
		res := ts.writeContent(t, sp, cr,
			insertFiles(inlineFile("diagram.png", img, "ref", "diagram"),
				map[string]any{"name": "notes.txt", "url": served.URL + "/notes.txt"},
				map[string]any{"name": "chart", "url": served.URL + "/chart", "contentType": "image/x-chart", "ref": "chart"}))
		rev := str(res, "changeRequest.revision")
		wantFields(t, res, map[string]any{"changes": []any{map[string]any{"object": "inserted_files"}}})
		inserted, _ := res["insertedFiles"].([]any)
		if len(inserted) != 3 {
			t.Fatalf("insertedFiles: %v", res["insertedFiles"])
		}
		want := map[string]map[string]any{
			"diagram.png": {"name": "diagram.png", "contentType": "image/png", "size": len(img), "dimensions": map[string]any{"width": 3, "height": 2}},
			"notes.txt":   {"name": "notes.txt", "contentType": "text/plain; charset=utf-8", "size": len(notes)},
			"chart":       {"name": "chart", "contentType": "image/x-chart", "size": len(img), "dimensions": map[string]any{"width": 3, "height": 2}},
		}
		data := map[string][]byte{"diagram.png": img, "notes.txt": notes, "chart": img}
		fileIDs := map[string]string{}
		for i, refWant := range []string{"diagram", "", "chart"} {
			it := inserted[i].(map[string]any)
			file := it["file"].(map[string]any)
			name := str(file, "name")
			fileIDs[name] = str(file, "id")
			wantFields(t, file, want[name])
			if refWant == "" {
				wantAbsent(t, it, "ref")
			} else {
				wantFields(t, it, map[string]any{"ref": refWant})
			}
			wantSignedURL(t, str(file, "downloadURL"), sp, rev, fileIDs[name], name)
		}
		wantAbsent(t, inserted[1].(map[string]any)["file"].(map[string]any), "dimensions")

		// Every file read agrees.
		for name, id := range fileIDs {
			for _, p := range []string{crBase + "/content/files/" + id, spaceBase + "/revisions/" + rev + "/files/" + id} {
				wantFields(t, ts.must(t, 200, "GET", p, reader, nil), withPairs(want[name], "id", id))
			}
			ts.mustError(t, 404, "GET", spaceBase+"/content/files/"+id, reader, nil)
			ts.mustError(t, 404, "GET", spaceBase+"/revisions/"+main0+"/files/"+id, reader, nil)
		}
		revision := ts.must(t, 200, "GET", crBase+"/content", reader, nil)
		var names []string
		for _, f := range revision["files"].([]any) {
			names = append(names, str(f, "name"))
		}
		if !slices.Equal(names, []string{"chart", "diagram.png", "notes.txt"}) {
			t.Errorf("revision files: %v", names)
		}

		// Downloads: the exact bytes with their type, to readers only.
		for name, id := range fileIDs {
			path := spaceBase + "/revisions/" + rev + "/files/" + id + "/download"
			r := ts.send(t, "GET", path, reader, nil)
			if r.Status != 200 || !bytes.Equal(r.Body, data[name]) {
				t.Errorf("download %s: %d, %d bytes", name, r.Status, len(r.Body))
			}
			if ct := r.Header.Get("Content-Type"); ct != str(want[name], "contentType") {
				t.Errorf("download %s: Content-Type %q, want %q", name, ct, want[name]["contentType"])
			}
			if cl := r.Header.Get("Content-Length"); cl != itoa(len(data[name])) {
				t.Errorf("download %s: Content-Length %q", name, cl)
			}
			ts.mustError(t, 404, "GET", path, ts.token(cNonMember), nil)
			ts.mustError(t, 404, "GET", path, ts.token(cGuest), nil)
			ts.mustError(t, 401, "GET", path, "", nil)
			ts.mustError(t, 404, "GET", spaceBase+"/revisions/"+main0+"/files/"+id+"/download", reader, nil)
		}
		ts.mustError(t, 404, "GET", spaceBase+"/revisions/"+rev+"/files/nosuchfile/download", reader, nil)
		ts.mustError(t, 404, "GET", crBase+"/content/files/nosuchfile", reader, nil)

		// Lists page with cursors, in name order.
		var batch []map[string]any
		for i := range 7 {
			batch = append(batch, inlineFile(fmt.Sprintf("page-%d.txt", i), []byte{byte('a' + i)}))
		}
		ts.writeContent(t, sp, cr, insertFiles(batch...))
		wantNames := []string{"chart", "diagram.png", "notes.txt"}
		for i := range 7 {
			wantNames = append(wantNames, fmt.Sprintf("page-%d.txt", i))
		}
		rev2 := ts.crRevision(t, sp, cr)
		for _, base := range []string{crBase + "/content/files", spaceBase + "/revisions/" + rev2 + "/files"} {
			var seen []string
			next := ""
			for pages := 0; ; pages++ {
				if pages > 10 {
					t.Fatalf("%s: the cursor does not advance", base)
				}
				l := ts.must(t, 200, "GET", base+"?limit=3&page="+next, reader, nil)
				got := items(t, l)
				if len(got) > 3 {
					t.Errorf("%s: %d items with limit 3", base, len(got))
				}
				wantFields(t, l, map[string]any{"count": len(wantNames)})
				for _, it := range got {
					seen = append(seen, str(it, "name"))
				}
				next = str(l, "next.page")
				if next == "" {
					wantAbsent(t, l, "next")
					break
				}
			}
			if !slices.Equal(seen, wantNames) {
				t.Errorf("%s paged: %v, want %v", base, seen, wantNames)
			}
		}
		wantFields(t, ts.must(t, 200, "GET", spaceBase+"/content/files", reader, nil), map[string]any{"items": []any{}, "count": 0})

		// After a merge, main has them, under main's revision.
		merged := str(ts.mergeCR(t, sp, cr), "revision")
		l := ts.must(t, 200, "GET", spaceBase+"/content/files?limit=1000", reader, nil)
		if got := ids(t, l, "name"); !slices.Equal(got, wantNames) {
			t.Errorf("main files after merge: %v", got)
		}
		f := ts.must(t, 200, "GET", spaceBase+"/content/files/"+fileIDs["diagram.png"], reader, nil)
		wantFields(t, f, want["diagram.png"])
		wantSignedURL(t, str(f, "downloadURL"), sp, merged, fileIDs["diagram.png"], "diagram.png")
		r := ts.send(t, "GET", strings.TrimPrefix(str(f, "downloadURL"), testBaseURL), "", nil)
		if r.Status != 200 || !bytes.Equal(r.Body, img) {
			t.Errorf("download after merge: %d, %d bytes", r.Status, len(r.Body))
		}
	})
}

func TestContentGitMetadata(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		ctx := context.Background()
		reader := ts.token(cRead)
		sp := ts.newSpace(t, "Synced")
		f := ts.newContentFixture(t, sp)

		// A revision as a Git sync would make it: Git metadata on the
		// revision, a page and a file.
		base, err := ts.Store.Revision(ctx, sp, f.MainRevision)
		if err != nil {
			t.Fatal(err)
		}
		ed := ts.Content.Edit(ts.Store, base)
		if _, err := ed.UpdatePage(ctx, f.Page, func(p *quire.RevisionPage) error {
			p.Git = &quire.GitBlob{OID: "0a1b2c", Path: "guide/README.md"}
			return nil
		}, nil, content.Move{}); err != nil {
			t.Fatal(err)
		}
		file, err := ed.Snapshot().File(ctx, f.File)
		if err != nil {
			t.Fatal(err)
		}
		file.Git = &quire.GitBlob{OID: "3d4e5f", Path: ".gitbook/assets/logo.png"}
		if err := ed.PutFile(ctx, file); err != nil {
			t.Fatal(err)
		}
		next := ed.Revision(quire.NewID(), sp, quire.RevisionEdits, ts.user(cAdmin).ID, base.ID)
		next.Git = &quire.GitCommit{OID: "c0ffee", Message: "Sync from Git", CreatedByService: true}
		if err := ed.Commit(ctx, ts.Store, next); err != nil {
			t.Fatal(err)
		}
		if err := ts.Store.AdvanceSpaceRevision(ctx, sp, base.ID, next.ID); err != nil {
			t.Fatal(err)
		}

		spaceBase := "/v1/spaces/" + sp
		revBase := spaceBase + "/revisions/" + next.ID
		rev := ts.must(t, 200, "GET", spaceBase+"/content", reader, nil)
		wantFields(t, rev, map[string]any{"id": next.ID, "git.oid": "c0ffee", "git.message": "Sync from Git",
			"git.createdByService": true, "git.createdByGitBook": true,
			"pages.0.git": map[string]any{"oid": "0a1b2c", "path": "guide/README.md"},
			"files.0.git": map[string]any{"oid": "3d4e5f", "path": ".gitbook/assets/logo.png"}})
		wantAbsent(t, rev, "pages.0.pages.0.git")
		for _, p := range []string{
			spaceBase + "/content", spaceBase + "/content/pages", spaceBase + "/content/files", spaceBase + "/content/files/" + f.File,
			spaceBase + "/content/page/" + f.Page, spaceBase + "/content/path/" + f.PagePath,
			revBase, revBase + "/pages", revBase + "/files", revBase + "/files/" + f.File, revBase + "/page/" + f.Page,
			revBase + "/path/" + f.PagePath,
		} {
			sep := "?"
			if strings.Contains(p, "?") {
				sep = "&"
			}
			if with := ts.must(t, 200, "GET", p, reader, nil); !hasKeyDeep(with, "git") {
				t.Errorf("GET %s: no git metadata", p)
			}
			queries := []string{"metadata=false"}
			if strings.Contains(p, "/page/") || strings.Contains(p, "/path/") {
				queries = append(queries, "metadata=false&format=markdown", "format=document&metadata=false")
			}
			for _, q := range queries {
				if without := ts.must(t, 200, "GET", p+sep+q, reader, nil); hasKeyDeep(without, "git") {
					t.Errorf("GET %s%s%s still carries git: %v", p, sep, q, without)
				}
			}
			if with := ts.must(t, 200, "GET", p+sep+"metadata=true", reader, nil); !hasKeyDeep(with, "git") {
				t.Errorf("GET %s with metadata=true: no git metadata", p)
			}
		}
		// metadata=false changes nothing else.
		a := ts.must(t, 200, "GET", revBase+"?metadata=false", reader, nil)
		b := ts.must(t, 200, "GET", revBase, reader, nil)
		delete(b, "git")
		for _, p := range b["pages"].([]any) {
			delete(p.(map[string]any), "git")
		}
		for _, f := range b["files"].([]any) {
			delete(f.(map[string]any), "git")
		}
		if !jsonEqual(a, b) {
			t.Errorf("metadata=false changed more than git:\n%v\n%v", a, b)
		}
	})
}

func TestApplyTemplates(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin, editor := ts.token(cAdmin), ts.token(cEdit)
		for _, c := range []struct {
			id   string
			tree []string
		}{
			{"product-docs", []string{
				"overview Overview", "getting-started Getting started", "  getting-started/quickstart Quickstart",
				"  getting-started/concepts Concepts", "guides Guides", "faq FAQ",
			}},
			{"api-reference", []string{
				"introduction Introduction", "authentication Authentication", "errors Errors", "endpoints Endpoints",
				"  endpoints/users Users", "  endpoints/spaces Spaces",
			}},
			{"knowledge-base", []string{
				"home Home", "onboarding Onboarding", "processes Processes", "  processes/planning Planning",
				"  processes/releases Releases", "policies Policies",
			}},
		} {
			t.Run(c.id, func(t *testing.T) {
				sp := ts.newSpace(t, c.id)
				spaceBase := "/v1/spaces/" + sp
				before := ts.spaceRevision(t, sp)
				r := ts.send(t, "POST", spaceBase+"/content/template", editor, map[string]any{"id": c.id})
				if r.Status != http.StatusCreated || len(r.Body) != 0 {
					t.Fatalf("apply %s: %d %q, want 201 without a body", c.id, r.Status, r.Body)
				}
				rev := ts.must(t, 200, "GET", spaceBase+"/content", admin, nil)
				if rev["id"] == before {
					t.Fatalf("the space's revision did not move")
				}
				wantFields(t, rev, map[string]any{"type": "edits", "parents": []string{before}})
				wantOutline(t, c.id, rev["pages"], c.tree...)
				// Every page has content.
				var walk func(list any)
				walk = func(list any) {
					for _, p := range list.([]any) {
						m := ts.pageMarkdown(t, spaceBase, str(p, "id"))
						if strings.TrimSpace(m) == "" {
							t.Errorf("%s: page %s is empty", c.id, str(p, "path"))
						}
						walk(field(p, "pages"))
					}
				}
				walk(rev["pages"])
				// Change requests started before are outdated.
				cr := ts.newChangeRequest(t, sp, "After")
				wantFields(t, cr, map[string]any{"revision": rev["id"], "outdated": false})

				// Applying it again adds the pages again beside them.
				if r := ts.send(t, "POST", spaceBase+"/content/template", admin, map[string]any{"id": c.id}); r.Status != http.StatusCreated {
					t.Fatalf("apply %s again: %d %s", c.id, r.Status, r.Body)
				}
				again := outline(ts.must(t, 200, "GET", spaceBase+"/content/pages", admin, nil)["pages"])
				if len(again) != 2*len(c.tree) {
					t.Errorf("after applying twice: %q", again)
				}
				top := strings.Fields(c.tree[0])[0]
				if !slices.Contains(again, top+"-1 "+strings.SplitN(c.tree[0], " ", 2)[1]) {
					t.Errorf("second copy of %s has no suffixed slug: %q", top, again)
				}
				wantFields(t, ts.must(t, 200, "GET", crPath(sp, str(cr, "id"), ""), admin, nil), map[string]any{"outdated": true})
			})
		}
		sp := ts.newSpace(t, "Refused")
		ts.mustError(t, 403, "POST", "/v1/spaces/"+sp+"/content/template", ts.token(cReview), map[string]any{"id": "product-docs"})
		wantContains(t, ts.mustError(t, 400, "POST", "/v1/spaces/"+sp+"/content/template", admin, map[string]any{"id": "blog"}), "product-docs")
		// The built-in templates take no content references: one given is
		// refused, naming it, rather than ignored.
		logo := map[string]any{"id": "product-docs", "params": map[string]any{"contentRefs": map[string]any{
			"logo": map[string]any{"kind": "url", "url": "https://example.com/logo.png"}}}}
		wantContains(t, ts.mustError(t, 400, "POST", "/v1/spaces/"+sp+"/content/template", admin, logo), "params.contentRefs.logo")
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content/pages", admin, nil), map[string]any{"pages": []any{}})
		none := ts.newSpace(t, "No references")
		if r := ts.send(t, "POST", "/v1/spaces/"+none+"/content/template", admin,
			map[string]any{"id": "product-docs", "params": map[string]any{"contentRefs": map[string]any{}}}); r.Status != http.StatusCreated {
			t.Fatalf("apply with no references: %d %s", r.Status, r.Body)
		}
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+sp, admin, nil)
		ts.mustError(t, 400, "POST", "/v1/spaces/"+sp+"/content/template", admin, map[string]any{"id": "product-docs"})
	})
}

// markdownBlocks are page bodies in the exporter's normal form, one or
// more per block kind of GitBook Markdown.
var markdownBlocks = []struct{ name, md string }{
	{"hint", "{% hint style=\"info\" %}\nSome info.\n{% endhint %}"},
	{"hint warning with icon", "{% hint style=\"warning\" icon=\"books\" %}\nCareful.\n{% endhint %}"},
	{"hint with title and list", "{% hint style=\"success\" %}\n## Good to know\n\n* one\n* two\n{% endhint %}"},
	{"tabs", "{% tabs %}\n{% tab title=\"Windows\" %}\nUse PowerShell.\n{% endtab %}\n\n{% tab title=\"macOS\" icon=\"apple\" %}\nUse Terminal.\n{% endtab %}\n{% endtabs %}"},
	{"tabs with code", "{% tabs %}\n{% tab title=\"Go\" %}\n```go\nfmt.Println(\"hi\")\n```\n{% endtab %}\n\n{% tab title=\"Shell\" %}\n```bash\necho hi\n```\n{% endtab %}\n{% endtabs %}"},
	{"code with title", "{% code title=\"index.js\" %}\n```javascript\nconst a = 1;\n```\n{% endcode %}"},
	{"code with options", "{% code title=\"run.sh\" overflow=\"wrap\" lineNumbers=\"true\" expandable=\"true\" fullWidth=\"false\" %}\n```bash\necho hi\n```\n{% endcode %}"},
	{"expandable", "<details>\n\n<summary>More details</summary>\n\nHidden text.\n\n</details>"},
	{"embed", `{% embed url="https://www.youtube.com/watch?v=abc" %}`},
	{"embed with caption", "{% embed url=\"https://example.com/x\" %}\nA caption\n{% endembed %}"},
	{"content-ref", "{% content-ref url=\"getting-started/quickstart.md\" %}\n[quickstart.md](getting-started/quickstart.md)\n{% endcontent-ref %}"},
	{"file", "{% file src=\"../.gitbook/assets/report.pdf\" %}\nThe yearly report\n{% endfile %}"},
	{"file without caption", "{% file src=\"../.gitbook/assets/report (1).pdf\" %}\n{% endfile %}"},
	{"stepper", "{% stepper %}\n{% step %}\n### Install\n\nRun the installer.\n{% endstep %}\n\n{% step %}\n### Configure\n\nEdit the file.\n{% endstep %}\n{% endstepper %}"},
	{"math", "$$\nE = mc^2\n$$"},
	{"math multi line", "$$\n\\begin{aligned}\na &= b \\\\\nc &= d\n\\end{aligned}\n$$"},
	{"table", "| Name | Value |\n| ---- | ----- |\n| a    | 1     |\n| b    | 2     |"},
	{"table aligned", "| Left | Center | Right |\n| ---- | :----: | ----: |\n| l    | c      | r     |"},
	{"image", "![A diagram](../.gitbook/assets/diagram.png)"},
	{"image figure", `<figure><img src="../.gitbook/assets/a.png" alt="Alt"><figcaption><p>A <em>styled</em> caption</p></figcaption></figure>`},
	{"image dark mode", `<figure><picture><source srcset="../.gitbook/assets/dark.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.png" alt=""></picture><figcaption></figcaption></figure>`},
	{"columns", "{% columns %}\n{% column width=\"50%\" %}\nLeft side.\n{% endcolumn %}\n\n{% column width=\"50%\" valign=\"middle\" %}\nRight side.\n{% endcolumn %}\n{% endcolumns %}"},
	{"mixed page", "# Title\n\nIntro with **bold**, _italic_ and `code`.\n\n{% hint style=\"danger\" %}\nDanger!\n{% endhint %}\n\n1. one\n2. two\n\n***\n\n> Quoted"},
}

func TestMarkdownRoundTripThroughAPI(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Blocks")
		cr := str(ts.newChangeRequest(t, sp, "Markdown"), "id")
		crBase := crPath(sp, cr, "")
		changes := make([]map[string]any, 0, len(markdownBlocks))
		for _, b := range markdownBlocks {
			changes = append(changes, insertPage(b.name, b.md))
		}
		res := ts.writeContent(t, sp, cr, changes...)

		// Markdown in, Markdown out; and the JSON document of each page.
		docs := make([]any, len(markdownBlocks))
		changes = changes[:0]
		for i, b := range markdownBlocks {
			id := changedPage(t, res, i)
			if got := ts.pageMarkdown(t, crBase, id); got != b.md+"\n" {
				t.Errorf("%s: Markdown read back differs\ngot:\n%s\nwant:\n%s", b.name, got, b.md+"\n")
			}
			p := ts.must(t, 200, "GET", crBase+"/content/page/"+id+"?format=document", admin, nil)
			docs[i] = p["document"]
			wantFields(t, p, map[string]any{"document.object": "document", "document.data.schemaVersion": 1})
			blockKeys(t, docs[i])
			changes = append(changes, map[string]any{"operation": "insert_page", "title": b.name + " again",
				"document": map[string]any{"document": docs[i]}})
		}

		// The JSON document in, the same document out (keys aside), and
		// the same Markdown.
		res = ts.writeContent(t, sp, cr, changes...)
		for i, b := range markdownBlocks {
			id := changedPage(t, res, i)
			p := ts.must(t, 200, "GET", crBase+"/content/page/"+id+"?format=document", admin, nil)
			if a, w := withoutKeys(p["document"]), withoutKeys(docs[i]); !jsonEqual(a, w) {
				ga, _ := json.Marshal(a)
				gw, _ := json.Marshal(w)
				t.Errorf("%s: document read back differs\ngot  %s\nwant %s", b.name, ga, gw)
			}
			if got := ts.pageMarkdown(t, crBase, id); got != b.md+"\n" {
				t.Errorf("%s: Markdown of the document differs\ngot:\n%s\nwant:\n%s", b.name, got, b.md+"\n")
			}
		}

		// Through a merge too.
		ts.mergeCR(t, sp, cr)
		for _, p := range ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content/pages", admin, nil)["pages"].([]any) {
			name := strings.TrimSuffix(str(p, "title"), " again")
			i := slices.IndexFunc(markdownBlocks, func(b struct{ name, md string }) bool { return b.name == name })
			if i < 0 {
				t.Fatalf("unexpected page %q", str(p, "title"))
			}
			if got := ts.pageMarkdown(t, "/v1/spaces/"+sp, str(p, "id")); got != markdownBlocks[i].md+"\n" {
				t.Errorf("%s in main: %q", str(p, "title"), got)
			}
		}
	})
}
