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

// idAfter returns the id in a redirect to prefix+id(+rest), failing the
// test when the location is not of that form.
func idAfter(t *testing.T, loc, prefix, suffix string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(loc, prefix)
	if !ok {
		t.Fatalf("redirect to %q, want %s…", loc, prefix)
	}
	id, _, _ := strings.Cut(rest, "?")
	return strings.TrimSuffix(id, suffix)
}

// spaceOf reads a space from the store.
func spaceOf(t *testing.T, h *harness, id string) *quire.Space {
	t.Helper()
	sp, err := h.Store.Space(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestCollectionsManage walks an admin through the forms: create a
// collection and a space, rename the space, move it into the collection,
// reorder it, delete it (asked to confirm first), restore it from Trash,
// and delete the collection.
func TestCollectionsManage(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		c := h.client(t, h.signIn(t, h.Admin))
		status, loc, _ := h.postForm(t, c, "/app/o/"+h.Org+"/collections", url.Values{"title": {"Guides"}, "parent": {""}})
		if status != http.StatusSeeOther || !strings.HasSuffix(loc, "?notice=collection-created") {
			t.Fatalf("create collection: %d %q", status, loc)
		}
		guides := idAfter(t, loc, "/app/c/", "")
		status, loc, _ = h.postForm(t, c, "/app/o/"+h.Org+"/spaces", url.Values{"title": {"Install"}, "parent": {""}})
		if status != http.StatusSeeOther {
			t.Fatalf("create space: %d %q", status, loc)
		}
		space := idAfter(t, loc, "/app/s/", "/~/manage")
		if _, _, body := h.get(t, c, loc); !strings.Contains(body, "Space created") || !strings.Contains(body, `value="Install"`) {
			t.Fatalf("the new space's page:\n%s", body)
		}

		status, loc, _ = h.postForm(t, c, "/app/s/"+space+"/~/update", url.Values{"title": {"Setup"}})
		if status != http.StatusSeeOther || loc != "/app/s/"+space+"/~/manage?notice=space-renamed" {
			t.Fatalf("rename: %d %q", status, loc)
		}
		if got := spaceOf(t, h, space).Title; got != "Setup" {
			t.Fatalf("renamed to %q", got)
		}
		if _, _, body := h.get(t, c, loc); !strings.Contains(body, `role="status">Space renamed`) {
			t.Fatalf("no notice after renaming:\n%s", body)
		}

		if status, _, _ := h.postForm(t, c, "/app/s/"+space+"/~/move", url.Values{"parent": {guides}}); status != http.StatusSeeOther {
			t.Fatalf("move in: %d", status)
		}
		if got := spaceOf(t, h, space).Parent; got != guides {
			t.Fatalf("moved under %q", got)
		}
		second, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Second", Parent: guides})
		if err != nil {
			t.Fatal(err)
		}
		status, _, body := h.get(t, c, "/app/c/"+guides)
		if status != http.StatusOK || !strings.Contains(body, "<h1>Guides</h1>") || strings.Index(body, ">Setup</a>") > strings.Index(body, ">Second</a>") {
			t.Fatalf("collection page: %d\n%s", status, body)
		}
		if status, _, _ := h.postForm(t, c, "/app/s/"+second.Space.ID+"/~/move", url.Values{"direction": {"up"}}); status != http.StatusSeeOther {
			t.Fatalf("move up: %d", status)
		}
		l, err := h.Svc.CollectionSpaces(ctx, h.Admin, guides, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 2 || l.Items[0].Space.ID != second.Space.ID {
			t.Fatalf("after moving Second up, the first is %q", l.Items[0].Space.Title)
		}
		if status, _, body := h.postForm(t, c, "/app/s/"+second.Space.ID+"/~/move", url.Values{"direction": {"up"}}); status != http.StatusUnprocessableEntity || !strings.Contains(body, "cannot move up") {
			t.Fatalf("moving the first up: %d\n%s", status, body)
		}

		// Deleting asks first, without script.
		status, _, body = h.postForm(t, c, "/app/s/"+space+"/~/delete", nil)
		if status != http.StatusOK || !strings.Contains(body, "Delete the space “Setup”?") || spaceOf(t, h, space).DeletedAt != nil {
			t.Fatalf("unconfirmed delete: %d\n%s", status, body)
		}
		status, loc, _ = h.postForm(t, c, "/app/s/"+space+"/~/delete", url.Values{"confirm": {"yes"}})
		if status != http.StatusSeeOther || loc != "/app/o/"+h.Org+"/trash?notice=space-deleted" || spaceOf(t, h, space).DeletedAt == nil {
			t.Fatalf("delete: %d %q", status, loc)
		}
		if _, _, body := h.get(t, c, loc); !strings.Contains(body, "Setup</td>") || !strings.Contains(body, `aria-label="Restore Setup"`) {
			t.Fatalf("trash:\n%s", body)
		}
		if status, _, _ := h.get(t, c, "/app/s/"+space+"/~/manage"); status != http.StatusNotFound {
			t.Fatalf("a deleted space's page: %d", status)
		}
		status, loc, _ = h.postForm(t, c, "/app/s/"+space+"/~/restore", nil)
		if status != http.StatusSeeOther || loc != "/app/s/"+space+"/~/manage?notice=space-restored" || spaceOf(t, h, space).DeletedAt != nil {
			t.Fatalf("restore: %d %q", status, loc)
		}

		status, loc, _ = h.postForm(t, c, "/app/c/"+guides+"/delete", url.Values{"confirm": {"yes"}})
		if status != http.StatusSeeOther || loc != "/app/o/"+h.Org+"?notice=collection-deleted" {
			t.Fatalf("delete collection: %d %q", status, loc)
		}
		if spaceOf(t, h, space).DeletedAt == nil {
			t.Fatal("the space in the deleted collection is live")
		}
		if status, _, _ := h.get(t, c, "/app/c/"+guides); status != http.StatusNotFound {
			t.Fatalf("deleted collection page: %d", status)
		}
	})
}

// TestCollectionsMoveCollection moves a collection into another and back
// to the root, and refuses a move into itself, naming the field.
func TestCollectionsMoveCollection(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		a, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Alpha", "")
		if err != nil {
			t.Fatal(err)
		}
		b, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Beta", "")
		if err != nil {
			t.Fatal(err)
		}
		c := h.client(t, h.signIn(t, h.Admin))
		if status, _, _ := h.postForm(t, c, "/app/c/"+b.Collection.ID+"/move", url.Values{"parent": {a.Collection.ID}}); status != http.StatusSeeOther {
			t.Fatalf("move in: %d", status)
		}
		_, _, body := h.get(t, c, "/app/c/"+b.Collection.ID)
		if !strings.Contains(body, `aria-label="Breadcrumbs"`) || !strings.Contains(body, `<a href="/app/c/`+a.Collection.ID+`">Alpha</a>`) {
			t.Fatalf("no breadcrumb to the parent:\n%s", body)
		}
		status, _, body := h.postForm(t, c, "/app/c/"+a.Collection.ID+"/move", url.Values{"parent": {b.Collection.ID}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "Destination a collection cannot be moved into one of its own sub-collections") {
			t.Fatalf("move into its own child: %d\n%s", status, body)
		}
		if status, _, _ := h.postForm(t, c, "/app/c/"+b.Collection.ID+"/move", url.Values{"parent": {""}}); status != http.StatusSeeOther {
			t.Fatalf("move to the root: %d", status)
		}
		got, err := h.Svc.Collection(ctx, b.Collection.ID)
		if err != nil || got.Parent != "" {
			t.Fatalf("after moving to the root: %+v %v", got, err)
		}
	})
}

// TestCollectionsRefused checks that a reader sees no control and is
// refused each write, and that someone outside the organization gets the
// page of something that does not exist.
func TestCollectionsRefused(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		guides, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", "")
		if err != nil {
			t.Fatal(err)
		}
		sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Install", Parent: guides.Collection.ID})
		if err != nil {
			t.Fatal(err)
		}
		gone, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Gone"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Svc.DeleteSpace(ctx, gone.Space.ID); err != nil {
			t.Fatal(err)
		}
		cid, sid := guides.Collection.ID, sp.Space.ID

		reader := h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))
		for _, path := range []string{"/app/c/" + cid, "/app/o/" + h.Org, "/app/o/" + h.Org + "/trash"} {
			status, _, body := h.get(t, reader, path)
			if status != http.StatusOK {
				t.Fatalf("reader %s: %d", path, status)
			}
			for _, control := range []string{"Create collection", "Create space", "Save collection", "Delete collection", "Move to", "Manage Install", "Restore", "draggable", "data-drop"} {
				if strings.Contains(body, control) {
					t.Errorf("reader sees %q on %s", control, path)
				}
			}
		}
		for _, w := range []struct {
			path string
			form url.Values
		}{
			{"/app/o/" + h.Org + "/collections", url.Values{"title": {"Mine"}}},
			{"/app/o/" + h.Org + "/spaces", url.Values{"title": {"Mine"}}},
			{"/app/c/" + cid + "/update", url.Values{"title": {"Mine"}}},
			{"/app/c/" + cid + "/move", url.Values{"parent": {""}}},
			{"/app/c/" + cid + "/delete", url.Values{"confirm": {"yes"}}},
			{"/app/s/" + sid + "/~/update", url.Values{"title": {"Mine"}}},
			{"/app/s/" + sid + "/~/move", url.Values{"parent": {""}}},
			{"/app/s/" + sid + "/~/delete", url.Values{"confirm": {"yes"}}},
			{"/app/s/" + gone.Space.ID + "/~/restore", nil},
		} {
			if status, _, _ := h.postForm(t, reader, w.path, w.form); status != http.StatusForbidden {
				t.Errorf("reader POST %s: %d, want 403", w.path, status)
			}
		}
		if status, _, _ := h.get(t, reader, "/app/s/"+sid+"/~/manage"); status != http.StatusForbidden {
			t.Errorf("reader's space management page: %d", status)
		}

		outsider := h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
		status, _, body := h.get(t, outsider, "/app/c/"+cid)
		_, _, missing := h.get(t, outsider, "/app/c/nosuchcollection")
		if status != http.StatusNotFound || strings.Contains(body, "Guides") || body != missing {
			t.Fatalf("outsider's collection page: %d\n%s", status, body)
		}
		for _, path := range []string{"/app/s/" + sid + "/~/delete", "/app/c/" + cid + "/update", "/app/s/" + gone.Space.ID + "/~/restore"} {
			if status, _, _ := h.postForm(t, outsider, path, url.Values{"title": {"X"}, "confirm": {"yes"}}); status != http.StatusNotFound {
				t.Errorf("outsider POST %s: %d, want 404", path, status)
			}
		}
		if status, _, _ := h.get(t, outsider, "/app/o/"+h.Org+"/trash"); status != http.StatusNotFound {
			t.Errorf("outsider's trash: %d", status)
		}
		if got := spaceOf(t, h, sid); got.Title != "Install" || got.Parent != cid || got.DeletedAt != nil {
			t.Fatalf("a refused write changed the space: %+v", got)
		}
		if got := spaceOf(t, h, gone.Space.ID); got.DeletedAt == nil {
			t.Fatal("a refused restore restored the space")
		}
	})
}

// TestCollectionsBadTitles checks that an empty or long title draws the
// form again naming the field, and stores nothing.
func TestCollectionsBadTitles(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		c := h.client(t, h.signIn(t, h.Admin))
		long := strings.Repeat("x", 51)
		for _, tc := range []struct {
			path, title, want string
		}{
			{"/app/o/" + h.Org + "/collections", "", "Title must not be empty."},
			{"/app/o/" + h.Org + "/collections", long, "Title must be at most 50 characters."},
			{"/app/o/" + h.Org + "/spaces", "   ", "Title must not be empty."},
			{"/app/o/" + h.Org + "/spaces", long, "Title must be at most 50 characters."},
		} {
			status, _, body := h.postForm(t, c, tc.path, url.Values{"title": {tc.title}})
			if status != http.StatusUnprocessableEntity || !strings.Contains(body, tc.want) || !strings.Contains(body, `aria-invalid="true"`) {
				t.Errorf("POST %s %q: %d\n%s", tc.path, tc.title, status, body)
			}
		}
		cols, err := h.Svc.Collections(ctx, h.Admin, h.Org, true, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		spaces, err := h.Svc.Spaces(ctx, h.Admin, h.Org, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if len(cols.Items) != 0 || len(spaces.Items) != 0 {
			t.Fatalf("bad titles stored %d collections, %d spaces", len(cols.Items), len(spaces.Items))
		}

		g, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", "")
		if err != nil {
			t.Fatal(err)
		}
		sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Install"})
		if err != nil {
			t.Fatal(err)
		}
		status, _, body := h.postForm(t, c, "/app/s/"+sp.Space.ID+"/~/update", url.Values{"title": {""}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, `<p class="field-error" id="rename-error">Title must not be empty.</p>`) {
			t.Errorf("empty space title: %d\n%s", status, body)
		}
		status, _, body = h.postForm(t, c, "/app/c/"+g.Collection.ID+"/update", url.Values{"title": {"Guides"}, "description": {strings.Repeat("d", 101)}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "Description must be at most 100 characters.") {
			t.Errorf("long description: %d\n%s", status, body)
		}
		if got := spaceOf(t, h, sp.Space.ID).Title; got != "Install" {
			t.Errorf("space title now %q", got)
		}
		if got, _ := h.Svc.Collection(ctx, g.Collection.ID); got.Description != "" {
			t.Errorf("description stored: %q", got.Description)
		}
	})
}
