package app_test

import (
	"net/http"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/testutil"
)

// waitNotice waits for the page a write redirected to, by its notice.
func waitNotice(t *testing.T, b *testutil.BrowserPage, key string) {
	t.Helper()
	b.WaitFor(`location.search.includes("notice=` + key + `") && document.readyState === "complete"`)
}

// TestCollectionsBrowser has an admin create a collection and a space,
// rename the space, move it into the collection with the keyboard form
// and back out by dragging it in the sidebar, delete it and restore it
// from Trash; then a reader finds none of the controls. Screenshots of
// the organization's page and the collection's, at desktop and phone
// widths in both themes.
func TestCollectionsBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)

	b.Fill("textbox", "New collection", "Guides")
	b.Click("button", "Create collection")
	waitNotice(t, b, "collection-created")
	b.H1("Guides")
	guides := strings.TrimPrefix(b.JS("location.pathname"), "/app/c/")

	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.Fill("textbox", "New space", "Install")
	b.Click("button", "Create space")
	waitNotice(t, b, "space-created")
	b.H1("Install")
	space := strings.TrimSuffix(strings.TrimPrefix(b.JS("location.pathname"), "/app/s/"), "/~/manage")

	b.Fill("textbox", "Title", "Setup")
	b.Click("button", "Rename space")
	waitNotice(t, b, "space-renamed")
	b.H1("Setup")
	if !b.Has("status", "") && !strings.Contains(b.JS(`document.querySelector("[role=status]").textContent`), "Space renamed") {
		t.Error("no notice after renaming")
	}

	// The keyboard way: the "Move to" select, then its button.
	if !b.Has("combobox", "Move to") {
		t.Fatal("no Move to select")
	}
	// Choosing an option with the arrow keys opens headless Chromium's
	// popup, which blocks the test: the choice is set as the key would.
	b.JS(`(function () {
		var sel = document.getElementById([...document.querySelectorAll("label")].find(function (l) { return l.textContent === "Move to"; }).htmlFor);
		sel.focus();
		sel.selectedIndex = 1;
		return "";
	})()`)
	b.Click("button", "Move space")
	waitNotice(t, b, "space-moved")
	if sp := spaceOf(t, h, space); sp.Parent != guides {
		t.Fatalf("after the keyboard move the space is under %q, want %q", sp.Parent, guides)
	}

	// Screenshots while the tree has a collection holding the space.
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.H1("Acme Docs")
	b.Shoot("app-spaces-org-desktop-light.png")
	b.Open(h.URL+"/app/c/"+guides, http.StatusOK)
	b.H1("Guides")
	b.Shoot("app-spaces-collection-desktop-light.png")
	b.Theme("dark")
	b.H1("Guides")
	b.Shoot("app-spaces-collection-desktop-dark.png")
	b.Viewport(390, 844, true)
	b.Shoot("app-spaces-collection-phone-dark.png")
	b.Theme("light")
	b.H1("Guides")
	b.Shoot("app-spaces-collection-phone-light.png")
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.H1("Acme Docs")
	b.Shoot("app-spaces-org-phone-light.png")
	b.Theme("dark")
	b.H1("Acme Docs")
	b.Shoot("app-spaces-org-phone-dark.png")
	b.Viewport(1280, 900, false)
	b.Shoot("app-spaces-org-desktop-dark.png")
	b.Theme("light")

	// Drag it from the sidebar tree onto the "Spaces" heading: the root.
	b.Open(h.URL+"/app/s/"+space+"/~/manage", http.StatusOK)
	b.JS(`(function () {
		var src = [...document.querySelectorAll("#sidebar a")].find(function (a) { return a.textContent.trim() === "Setup"; });
		var dst = [...document.querySelectorAll("#sidebar h2")].find(function (h) { return h.textContent.trim() === "Spaces"; });
		var dt = new DataTransfer();
		src.dispatchEvent(new DragEvent("dragstart", {bubbles: true, dataTransfer: dt}));
		dst.dispatchEvent(new DragEvent("dragover", {bubbles: true, cancelable: true, dataTransfer: dt}));
		dst.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
		return "";
	})()`)
	waitNotice(t, b, "space-moved")
	if sp := spaceOf(t, h, space); sp.Parent != "" {
		t.Fatalf("after dragging to the root the space is under %q", sp.Parent)
	}

	// Delete, accepting the confirmation, then restore from Trash.
	b.JS(`window.confirm = function () { return true; }; ""`)
	b.Click("button", "Delete space")
	waitNotice(t, b, "space-deleted")
	b.H1("Trash")
	if spaceOf(t, h, space).DeletedAt == nil {
		t.Fatal("the space is not deleted")
	}
	b.Click("button", "Restore Setup")
	waitNotice(t, b, "space-restored")
	b.H1("Setup")
	if spaceOf(t, h, space).DeletedAt != nil {
		t.Fatal("the space is not restored")
	}

	// A reader sees the pages without a control.
	reader := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
	b.Forget()
	h.signInBrowser(t, b, reader)
	for _, p := range []struct{ path, h1 string }{{"/app/o/" + h.Org, "Acme Docs"}, {"/app/c/" + guides, "Guides"}} {
		path := p.path
		b.Open(h.URL+path, http.StatusOK)
		b.H1(p.h1)
		for _, c := range []struct{ role, name string }{
			{"button", "Create collection"}, {"button", "Create space"}, {"button", "Save collection"},
			{"button", "Delete collection"}, {"combobox", "Move to"}, {"link", "Manage Setup"},
		} {
			if b.Has(c.role, c.name) {
				t.Errorf("reader sees %s %q on %s", c.role, c.name, path)
			}
		}
	}
	if got := b.JS(`String(document.querySelectorAll("[draggable=true]").length)`); got != "0" {
		t.Errorf("reader can drag %s items", got)
	}
}
