package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// opsSpace is a space with the pages A (holding A1), B and C merged, and
// the target the page operations write: a new change request, or the
// space's live content.
type opsSpace struct {
	Space         string
	A, A1, B, C   string
	Ops, PageBase string
	Ref, Main     service.ContentRef
	CR            *quire.ChangeRequest
}

// newOpsSpace builds an opsSpace; live makes the space live and writes
// there, otherwise a change request of the admin's takes the writes.
func newOpsSpace(t *testing.T, h *harness, live bool) *opsSpace {
	t.Helper()
	ctx := context.Background()
	sv, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Ops"})
	if err != nil {
		t.Fatal(err)
	}
	o := &opsSpace{Space: sv.Space.ID, Main: service.ContentRef{SpaceID: sv.Space.ID}}
	top := ""
	res := h.writeAndMerge(t, o.Space, "Pages", pageChange("a", "A", "a", "Alpha.\n", &top),
		pageChange("a1", "A1", "a1", "Alpha one.\n", ptr("a")), pageChange("b", "B", "b", "Beta.\n", &top),
		pageChange("c", "C", "c", "Gamma.\n", &top))
	o.A, o.A1, o.B, o.C = res[0].PageID, res[1].PageID, res[2].PageID, res[3].PageID
	if live {
		mode := quire.EditModeLive
		if _, err := h.Svc.UpdateSpace(ctx, h.Admin, o.Space, quire.SpaceUpdate{EditMode: &mode}); err != nil {
			t.Fatal(err)
		}
		o.Ops, o.PageBase, o.Ref = "/app/s/"+o.Space+"/~/edit/live/pages", "/app/s/"+o.Space+"/", o.Main
		return o
	}
	cr, err := h.Svc.CreateChangeRequest(ctx, h.Admin, o.Space, "Reorganize")
	if err != nil {
		t.Fatal(err)
	}
	n := cr.Number
	o.CR = cr
	o.Ops = "/app/s/" + o.Space + "/~/edit/" + itoa(n) + "/pages"
	o.PageBase = "/app/s/" + o.Space + "/~/changes/" + itoa(n) + "/"
	o.Ref = service.ContentRef{SpaceID: o.Space, ChangeRequest: itoa(n)}
	return o
}

// itoa writes a change request's number.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// treeOf writes the page tree of content as "A[A1],B": titles in order,
// subpages in brackets.
func treeOf(t *testing.T, h *harness, ref service.ContentRef) string {
	t.Helper()
	ctx := context.Background()
	c, err := h.Svc.Content(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(parent string) string
	walk = func(parent string) string {
		kids, err := c.Children(ctx, parent)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, k := range kids {
			s := k.Title
			if sub := walk(k.ID); sub != "" {
				s += "[" + sub + "]"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ",")
	}
	return walk("")
}

// pageNamed finds a page of content by its title.
func pageNamed(t *testing.T, h *harness, ref service.ContentRef, title string) *quire.RevisionPage {
	t.Helper()
	ctx := context.Background()
	c, err := h.Svc.Content(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := c.Pages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if p.Title == title {
			return p
		}
	}
	t.Fatalf("no page %q in %s", title, treeOf(t, h, ref))
	return nil
}

// TestPageOps adds, renames, moves (a step, to a destination, by a
// drop), duplicates and deletes pages and changes a page's settings
// through the app's forms, in a change request (main keeps its pages
// until the merge) and in a live space (each write merged at once).
func TestPageOps(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		admin := h.client(t, h.signIn(t, h.Admin))
		for _, live := range []bool{false, true} {
			o := newOpsSpace(t, h, live)
			step := func(path string, form url.Values, wantTree, wantTo string) {
				t.Helper()
				status, loc, body := h.postForm(t, admin, path, form)
				if status != http.StatusSeeOther {
					t.Fatalf("live=%t POST %s %v: %d\n%s", live, path, form, status, problemText(body))
				}
				if wantTo != "" && loc != o.PageBase+wantTo {
					t.Errorf("live=%t POST %s: to %q, want %q", live, path, loc, o.PageBase+wantTo)
				}
				if got := treeOf(t, h, o.Ref); got != wantTree {
					t.Fatalf("live=%t POST %s %v: tree %s, want %s", live, path, form, got, wantTree)
				}
			}
			page := func(title string) string { return o.Ops + "/" + pageNamed(t, h, o.Ref, title).ID }
			id := func(title string) string { return pageNamed(t, h, o.Ref, title).ID }

			step(o.Ops, url.Values{"title": {"New"}}, "A[A1],B,C,New", "new")
			step(o.Ops, url.Values{"title": {"Sub"}, "parent": {o.B}}, "A[A1],B[Sub],C,New", "b/sub")
			step(o.Ops, url.Values{"title": {"Next"}, "after": {o.A}}, "A[A1],Next,B[Sub],C,New", "next")
			step(page("Next")+"/rename", url.Values{"title": {"Renamed"}}, "A[A1],Renamed,B[Sub],C,New", "renamed")
			step(page("C")+"/move", url.Values{"direction": {"up"}}, "A[A1],Renamed,C,B[Sub],New", "c")
			step(page("C")+"/move", url.Values{"direction": {"indent"}}, "A[A1],Renamed[C],B[Sub],New", "renamed/c")
			step(page("C")+"/move", url.Values{"direction": {"outdent"}}, "A[A1],Renamed,C,B[Sub],New", "c")
			step(page("C")+"/move", url.Values{"direction": {"down"}}, "A[A1],Renamed,B[Sub],C,New", "c")
			step(page("New")+"/move", url.Values{"parent": {o.A}, "position": {"first"}}, "A[New,A1],Renamed,B[Sub],C", "a/new")
			step(page("New")+"/move", url.Values{"parent": {""}, "position": {"last"}}, "A[A1],Renamed,B[Sub],C,New", "new")
			step(page("New")+"/move", url.Values{"target": {o.A}, "place": {"after"}}, "A[A1],New,Renamed,B[Sub],C", "new")
			step(page("Sub")+"/move", url.Values{"target": {o.A}, "place": {"inside"}}, "A[A1,Sub],New,Renamed,B,C", "a/sub")
			step(page("Sub")+"/move", url.Values{"target": {id("C")}, "place": {"before"}}, "A[A1],New,Renamed,B,Sub,C", "sub")
			step(page("A")+"/duplicate", nil, "A[A1],A (copy)[A1],New,Renamed,B,Sub,C", "a-copy")
			// Without the confirmation a delete asks, saying what goes.
			if status, _, body := h.postForm(t, admin, page("A (copy)")+"/delete", nil); status != http.StatusOK || !strings.Contains(body, "Its 1 subpage goes with it.") {
				t.Fatalf("delete without confirming: %d\n%s", status, problemText(body))
			}
			step(page("A (copy)")+"/delete", url.Values{"confirm": {"yes"}}, "A[A1],New,Renamed,B,Sub,C", "")

			settings := url.Values{"title": {"B"}, "slug": {"bee"}, "emoji": {"🚀"}, "description": {"About B"},
				"hidden": {"on"}, "cover": {""}, "show_title": {"on"}, "show_cover": {"on"}, "width": {"wide"}}
			step(page("B")+"/settings", settings, "A[A1],New,Renamed,B,Sub,C", "bee")
			b := pageNamed(t, h, o.Ref, "B")
			if b.Emoji != "🚀" || !b.Hidden || b.Description != "About B" || b.Slug != "bee" || b.Layout == nil ||
				b.Layout.Width != "wide" || b.Layout.Outline || b.Layout.Description || !b.Layout.Title {
				t.Fatalf("live=%t settings: %+v layout %+v", live, b, b.Layout)
			}

			main := treeOf(t, h, o.Main)
			if live && main != "A[A1],New,Renamed,B,Sub,C" {
				t.Errorf("live writes: main is %s", main)
			}
			if !live {
				if main != "A[A1],B,C" {
					t.Errorf("change request writes reached main: %s", main)
				}
				if _, err := h.Svc.MergeChangeRequest(context.Background(), h.Admin, o.Space, o.CR.ID); err != nil {
					t.Fatal(err)
				}
				if main := treeOf(t, h, o.Main); main != "A[A1],New,Renamed,B,Sub,C" {
					t.Errorf("after the merge main is %s", main)
				}
			}
		}
	})
}

// TestPageOpsTree checks that the page tree offers the operations where
// the content is editable (a change request's, a live space's main
// content, for an editor) and not elsewhere (a reader, a locked space).
func TestPageOpsTree(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	o := newOpsSpace(t, h, false)
	admin := h.client(t, h.signIn(t, h.Admin))
	reader := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
	rc := h.client(t, h.signIn(t, reader))
	has := func(c *http.Client, path string) bool {
		t.Helper()
		status, _, body := h.get(t, c, path)
		if status != http.StatusOK {
			t.Fatalf("GET %s: %d", path, status)
		}
		return strings.Contains(body, `aria-label="Page actions for A"`) && strings.Contains(body, "New page")
	}
	if !has(admin, o.PageBase+"a") {
		t.Error("a change request's page offers no page actions to its editor")
	}
	if !has(admin, "/app/s/"+o.Space+"/a") {
		t.Error("main content of a live space offers no page actions to an editor")
	}
	if has(rc, o.PageBase+"a") || has(rc, "/app/s/"+o.Space+"/a") {
		t.Error("a reader is offered page actions")
	}
	for _, p := range []string{"/new", "/" + o.A, "/" + o.A + "/rename", "/" + o.A + "/move", "/" + o.A + "/delete", "/" + o.A + "/settings"} {
		if status, _, body := h.get(t, admin, o.Ops+p); status != http.StatusOK {
			t.Errorf("GET %s: %d\n%s", o.Ops+p, status, problemText(body))
		}
	}
	locked := quire.EditModeLocked
	if _, err := h.Svc.UpdateSpace(context.Background(), h.Admin, o.Space, quire.SpaceUpdate{EditMode: &locked}); err != nil {
		t.Fatal(err)
	}
	if has(admin, "/app/s/"+o.Space+"/a") || has(admin, o.PageBase+"a") {
		t.Error("a locked space offers page actions")
	}
	if status, _, _ := h.get(t, admin, "/app/s/"+o.Space+"/~/edit/live/pages/"+o.A+"/rename"); status != http.StatusNotFound {
		t.Errorf("live target of a space that is not live: %d, want 404", status)
	}
}

// TestPageOpsMalformed sends bad page operations: each answers its 4xx
// naming the field, and the change request keeps its content.
func TestPageOpsMalformed(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		o := newOpsSpace(t, h, false)
		admin := h.client(t, h.signIn(t, h.Admin))
		before := treeOf(t, h, o.Ref)
		settings := func(over url.Values) url.Values {
			v := url.Values{"title": {"B"}, "width": {"default"}, "cover": {""}}
			for k, x := range over {
				v[k] = x
			}
			return v
		}
		for _, c := range []struct {
			path   string
			form   url.Values
			status int
			says   string
		}{
			{o.Ops, url.Values{"title": {"  "}}, 422, "Title must not be empty."},
			{o.Ops, url.Values{"title": {"X"}, "parent": {"nosuchpage"}}, 422, "Parent names no page of this content."},
			{o.Ops, url.Values{"title": {"X"}, "after": {"nosuchpage"}}, 422, "After names no page of this content."},
			{o.Ops + "/nosuchpage/rename", url.Values{"title": {"X"}}, 404, "There is nothing here"},
			{o.Ops + "/nosuchpage/move", url.Values{"direction": {"up"}}, 404, "There is nothing here"},
			{o.Ops + "/" + o.A + "/rename", url.Values{"title": {""}}, 422, "Title must not be empty."},
			{o.Ops + "/" + o.A + "/move", url.Values{"target": {o.A}, "place": {"inside"}}, 422, "Target a page cannot move into itself or its own subpages."},
			{o.Ops + "/" + o.A + "/move", url.Values{"target": {o.A1}, "place": {"after"}}, 422, "Target a page cannot move into itself"},
			{o.Ops + "/" + o.A + "/move", url.Values{"parent": {o.A1}, "position": {"last"}}, 422, "Parent a page cannot move into itself"},
			{o.Ops + "/" + o.A + "/move", url.Values{"parent": {""}, "position": {"middle"}}, 422, "Position must be first or last."},
			{o.Ops + "/" + o.A + "/move", url.Values{"target": {o.B}, "place": {"beside"}}, 422, "Place must be before, after or inside."},
			{o.Ops + "/" + o.A + "/move", url.Values{"target": {"nosuchpage"}, "place": {"before"}}, 422, "Target names no page"},
			{o.Ops + "/" + o.A + "/move", url.Values{"direction": {"sideways"}}, 422, "Direction must be up, down, indent or outdent."},
			{o.Ops + "/" + o.A + "/move", url.Values{"direction": {"up"}}, 422, "Direction the page is already the first at its level."},
			{o.Ops + "/" + o.A + "/move", url.Values{"direction": {"outdent"}}, 422, "Direction the page is already at the top level."},
			{o.Ops + "/" + o.A + "/move", url.Values{}, 422, "Direction choose where to move the page."},
			{o.Ops + "/" + o.A1 + "/move", url.Values{"position": {"first"}}, 422, "Direction choose where to move the page."},
			{o.Ops + "/" + o.B + "/settings", settings(url.Values{"width": {"huge"}}), 422, "Width must be default (normal) or wide."},
			{o.Ops + "/" + o.B + "/settings", settings(url.Values{"cover": {"nosuchfile"}}), 422, "Cover file"},
			{o.Ops + "/" + o.B + "/settings", settings(url.Values{"slug": {"Not A Slug"}}), 422, "Slug must be a URL path segment"},
			{o.Ops + "/" + o.B + "/settings", settings(url.Values{"title": {""}}), 422, "Title must not be empty."},
			{"/app/s/" + o.Space + "/~/edit/999/pages", url.Values{"title": {"X"}}, 404, "There is nothing here"},
		} {
			status, _, body := h.postForm(t, admin, c.path, c.form)
			if status != c.status || !strings.Contains(body, c.says) {
				t.Errorf("POST %s %v: %d, want %d saying %q\n%s", c.path, c.form, status, c.status, c.says, problemText(body))
			}
		}
		cr, err := h.Svc.ChangeRequest(context.Background(), o.Space, o.CR.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cr.Revision != o.CR.Revision || treeOf(t, h, o.Ref) != before {
			t.Fatalf("malformed requests wrote: revision %s (was %s), tree %s", cr.Revision, o.CR.Revision, treeOf(t, h, o.Ref))
		}
	})
}
