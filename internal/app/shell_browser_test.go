package app_test

import (
	"context"
	"net/http"
	"testing"
)

// TestShellBrowser opens the organization's page as its admin in a real
// browser: the heading, the switcher and the tree by their accessible
// names, the search shortcut, and screenshots at desktop and phone
// widths in both themes.
func TestShellBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	ctx := context.Background()
	if _, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", ""); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.H1("Acme Docs")
	for _, c := range []struct{ role, name string }{
		{"navigation", "Sidebar"}, {"link", "Guides"}, {"searchbox", "Search"},
		{"DisclosureTriangle", "Organization: Acme Docs"}, {"DisclosureTriangle", "Account: Ada Admin"}, {"button", "Dark theme"},
	} {
		if !b.Has(c.role, c.name) {
			t.Errorf("no %s named %q", c.role, c.name)
		}
	}
	b.JS(`document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "/", bubbles: true})); ""`)
	if id := b.JS("document.activeElement.id"); id != "search-input" {
		t.Errorf("the / shortcut focused %q, not search", id)
	}
	b.ShootViews("app-org", "main h1")
}
