package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// conflictFixture is a space where change request Mine conflicts with
// main on the first two blocks of page Guide: main's change request
// changed them too, and added a page, and was merged first.
type conflictFixture struct {
	Space, Guide string
	Mine         *quire.ChangeRequest
	// First is the revision of the first merge, with the page as it was
	// written.
	First string
}

// newConflictFixture builds the fixture's space.
func newConflictFixture(t *testing.T, h *harness) *conflictFixture {
	t.Helper()
	ctx := context.Background()
	sv, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Manual"})
	if err != nil {
		t.Fatal(err)
	}
	f := &conflictFixture{Space: sv.Space.ID}
	res := h.writeAndMerge(t, f.Space, "First page", pageChange("guide", "Guide", "guide", "Old one.\n\nOld two.\n\nOld three.\n", ptr("")))
	f.Guide = res[0].PageID
	sp, err := h.Svc.Space(ctx, f.Space)
	if err != nil {
		t.Fatal(err)
	}
	f.First = sp.Revision
	edit := func(md string) service.ContentChange {
		return service.ContentChange{Operation: service.OpUpdatePage, Page: f.Guide, Document: &service.DocumentInput{Markdown: &md}}
	}
	if f.Mine, err = h.Svc.CreateChangeRequest(ctx, h.Admin, f.Space, "Mine"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Svc.UpdateChangeRequestContent(ctx, h.Admin, f.Space, f.Mine.ID, []service.ContentChange{edit("Mine one.\n\nMine two.\n\nMine three.\n")}); err != nil {
		t.Fatal(err)
	}
	h.writeAndMerge(t, f.Space, "Main's", edit("Main one.\n\nMain two.\n\nOld three.\n"), pageChange("extra", "Extra", "extra", "More.\n", ptr("")))
	return f
}

// conflictIDs reads the conflict ids of the conflicts page, in order.
func conflictIDs(body string) []string {
	var out []string
	seen := map[string]bool{}
	for _, part := range strings.Split(body, `name="choice:`)[1:] {
		id := part[:strings.IndexByte(part, '"')]
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// hiddenValue reads a hidden input's value from a page.
func hiddenValue(body, name string) string {
	_, rest, ok := strings.Cut(body, `name="`+name+`" value="`)
	if !ok {
		return ""
	}
	return rest[:strings.IndexByte(rest, '"')]
}

// pageMarkdown is a page's document as a change request (or main, for
// "") has it, as Markdown.
func pageMarkdown(t *testing.T, h *harness, spaceID, crNumber, path string) string {
	t.Helper()
	rd, err := h.Svc.ReadSpace(context.Background(), service.ContentRef{SpaceID: spaceID, ChangeRequest: crNumber}, path, service.SpaceAddresses{})
	if err != nil {
		t.Fatal(err)
	}
	return rd.Document.PlainText()
}

func TestConflictsPageResolves(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newConflictFixture(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		n := strconv.Itoa(f.Mine.Number)
		path := "/app/s/" + f.Space + "/~/changes/" + n + "/conflicts"
		status, _, body := h.get(t, admin, path)
		if status != http.StatusOK {
			t.Fatalf("GET conflicts: %d %s", status, problemText(body))
		}
		for _, want := range []string{"Keep mine", "Take main’s", "Edit the block", "data-markdown", "Main one.", "Mine one.", "Main two.", `data-block="`} {
			if !strings.Contains(body, want) {
				t.Fatalf("conflicts page lacks %q", want)
			}
		}
		if strings.Contains(body, "Mine three.") {
			t.Fatal("a block without conflict is shown")
		}
		ids := conflictIDs(body)
		if len(ids) != 2 {
			t.Fatalf("conflict ids %v, want two", ids)
		}
		// The conflicts come in no set order: ids[0] is made the one
		// about the first block, whose section shows "Mine one." before
		// its choices.
		if one, i0, i1 := strings.Index(body, "Mine one."), strings.Index(body, `"choice:`+ids[0]), strings.Index(body, `"choice:`+ids[1]); i1 > one && (i0 < one || i1 < i0) {
			ids[0], ids[1] = ids[1], ids[0]
		}
		form := url.Values{"main": {hiddenValue(body, "main")}, "revision": {hiddenValue(body, "revision")},
			"choice:" + ids[0]: {"ours"}, "choice:" + ids[1]: {"edited"}, "markdown:" + ids[1]: {"Both two.\n"},
			// Markdown of a block kept as is is not used.
			"markdown:" + ids[0]: {"Ignored.\n"}}
		before, _ := h.Svc.ChangeRequest(context.Background(), f.Space, n)

		// Malformed choices write nothing and name the choice.
		for _, c := range []struct {
			name string
			form url.Values
			says string
		}{
			{"unknown id", with(form, "choice:page/nope/document/x", "ours"), "choice[page/nope/document/x]"},
			{"missing choice", without(form, "choice:"+ids[1]), "choice[" + ids[1] + "]"},
			{"bad choice", with(form, "choice:"+ids[0], "both"), "choice[" + ids[0] + "]"},
		} {
			status, _, body := h.postForm(t, admin, path, c.form)
			if status != http.StatusUnprocessableEntity || !strings.Contains(body, c.says) {
				t.Fatalf("%s: %d, want 422 naming %q\n%s", c.name, status, c.says, problemText(body))
			}
			if after, _ := h.Svc.ChangeRequest(context.Background(), f.Space, n); after.Revision != before.Revision {
				t.Fatalf("%s: the change request moved", c.name)
			}
		}

		status, loc, body := h.postForm(t, admin, path, form)
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/s/"+f.Space+"/~/changes/"+n+"?") {
			t.Fatalf("POST conflicts: %d to %q\n%s", status, loc, problemText(body))
		}
		if got, want := pageMarkdown(t, h, f.Space, n, "guide"), "Mine one.\nBoth two.\nMine three."; strings.TrimSpace(got) != want {
			t.Fatalf("resolved page %q, want %q", got, want)
		}
		if _, err := h.Svc.ReadSpace(context.Background(), service.ContentRef{SpaceID: f.Space, ChangeRequest: n}, "extra", service.SpaceAddresses{}); err != nil {
			t.Fatalf("main's new page is not in the change request: %v", err)
		}
		status, _, body = h.get(t, admin, path)
		if status != http.StatusOK || !strings.Contains(body, "up to date") {
			t.Fatalf("conflicts after: %d %s", status, problemText(body))
		}
	})
}

func TestConflictsPageStale(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newConflictFixture(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		n := strconv.Itoa(f.Mine.Number)
		path := "/app/s/" + f.Space + "/~/changes/" + n + "/conflicts"
		_, _, body := h.get(t, admin, path)
		ids := conflictIDs(body)
		form := url.Values{"main": {hiddenValue(body, "main")}, "revision": {hiddenValue(body, "revision")},
			"choice:" + ids[0]: {"theirs"}, "choice:" + ids[1]: {"theirs"}}
		// Main moves while the person chooses.
		h.writeAndMerge(t, f.Space, "Meanwhile", pageChange("later", "Later", "later", "Later.\n", ptr("")))
		before, _ := h.Svc.ChangeRequest(context.Background(), f.Space, n)
		status, _, body := h.postForm(t, admin, path, form)
		if status != http.StatusConflict || !strings.Contains(body, "changed while you were choosing") {
			t.Fatalf("stale POST: %d %s", status, problemText(body))
		}
		if after, _ := h.Svc.ChangeRequest(context.Background(), f.Space, n); after.Revision != before.Revision {
			t.Fatal("a stale resolution wrote")
		}
		sp, _ := h.Svc.Space(context.Background(), f.Space)
		if hiddenValue(body, "main") != sp.Revision || len(conflictIDs(body)) != 2 || !strings.Contains(body, `value="theirs" checked`) {
			t.Fatalf("the stale page does not show the conflicts against the new main with the choices kept")
		}
	})
}

func TestRevisionsHistoryAndRestore(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newConflictFixture(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, h.newUser(t, "rhea@acme.test", "Rhea Reader", quire.RoleRead)))
		base := "/app/s/" + f.Space + "/~/revisions"
		status, _, body := h.get(t, admin, base)
		if status != http.StatusOK {
			t.Fatalf("revisions: %d", status)
		}
		for _, want := range []string{"Merge", h.Admin.DisplayName, "Main&#39;s", "Extra", "Guide", "Restore this revision", "/~/revisions/" + f.First + "/guide"} {
			if !strings.Contains(body, want) {
				t.Fatalf("revisions page lacks %q", want)
			}
		}
		_, _, body = h.get(t, reader, base)
		if strings.Contains(body, "Restore") {
			t.Fatal("a reader sees restore controls")
		}
		_, _, body = h.get(t, reader, base+"/"+f.First+"/guide")
		if strings.Contains(body, "Restore this page") || !strings.Contains(body, "Old one.") {
			t.Fatal("a reader's page at a revision")
		}
		status, _, body = h.get(t, admin, base+"/"+f.First+"/guide")
		if status != http.StatusOK || !strings.Contains(body, "Restore this page") || !strings.Contains(body, "Restore this revision") {
			t.Fatalf("page at a revision: %d, no restore controls", status)
		}
		if status, _, _ := h.postForm(t, reader, base+"/"+f.First+"/restore-page", url.Values{"path": {"guide"}}); status != http.StatusForbidden {
			t.Fatalf("reader's restore: %d", status)
		}
		status, _, body = h.postForm(t, admin, base+"/"+f.First+"/restore-page", url.Values{"path": {"nowhere"}})
		if status != http.StatusBadRequest || !strings.Contains(body, "path: ") {
			t.Fatalf("restore of an unknown path: %d %s", status, problemText(body))
		}
		status, loc, _ := h.postForm(t, admin, base+"/"+f.First+"/restore-page", url.Values{"path": {"guide"}})
		if status != http.StatusSeeOther || !strings.Contains(loc, "/~/changes/") {
			t.Fatalf("restore page: %d to %q", status, loc)
		}
		num := strings.TrimPrefix(strings.SplitN(loc, "?", 2)[0], "/app/s/"+f.Space+"/~/changes/")
		cr, err := h.Svc.ChangeRequest(context.Background(), f.Space, num)
		if err != nil || !strings.HasPrefix(cr.Subject, "Restore Guide to ") {
			t.Fatalf("restore change request %v %+v", err, cr)
		}
		if got := pageMarkdown(t, h, f.Space, num, "guide"); strings.TrimSpace(got) != "Old one.\nOld two.\nOld three." {
			t.Fatalf("restored page %q", got)
		}
		status, loc, _ = h.postForm(t, admin, base+"/"+f.First+"/restore", nil)
		if status != http.StatusSeeOther || !strings.Contains(loc, "/~/changes/") {
			t.Fatalf("restore revision: %d to %q", status, loc)
		}
		num = strings.TrimPrefix(strings.SplitN(loc, "?", 2)[0], "/app/s/"+f.Space+"/~/changes/")
		if _, err := h.Svc.ReadSpace(context.Background(), service.ContentRef{SpaceID: f.Space, ChangeRequest: num}, "extra", service.SpaceAddresses{}); !quire.IsNotFound(err) {
			t.Fatalf("the whole-space restore keeps a page added later: %v", err)
		}
	})
}

// with returns a copy of a form with a field set.
func with(form url.Values, k, v string) url.Values {
	out := url.Values{}
	for key, vs := range form {
		out[key] = vs
	}
	out.Set(k, v)
	return out
}

// without returns a copy of a form without a field.
func without(form url.Values, k string) url.Values {
	out := with(form, k, "")
	out.Del(k)
	return out
}
