package app_test

import (
	"net/http"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
)

// TestAdminPagesBrowser opens the pages of a site, the sites list, an
// installed integration and an OpenAPI specification as the admin in a
// real browser: their headings and controls by accessible name, the
// sidebar links to them, and screenshots at desktop and phone widths in
// both themes.
func TestAdminPagesBrowser(t *testing.T) {
	var acfg *app.Config
	h := newHarness(t, "sqlite", func(h *harness, cfg *httpapi.Config, c *app.Config) {
		withAdminAreas(h, cfg, c)
		acfg = c
	})
	site := seedAdminPages(t, h, acfg)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	org := h.URL + "/app/o/" + h.Org
	pages := []struct {
		name, path, h1 string
		has            [][2]string
	}{
		{"sites", org + "/sites", "Sites", [][2]string{{"link", "Docs portal"}, {"table", "Sites"}, {"link", "Sites"}, {"link", "OpenAPI"}}},
		{"site", org + "/sites/" + site.ID, "Docs portal", [][2]string{{"heading", "Site spaces"}, {"link", "Handbook"}, {"link", h.URL + "/sites/portal/"}}},
		{"integration", org + "/integrations/watcher", "Watcher", [][2]string{{"heading", "Permissions it asks for"}, {"heading", "Installation in Acme Docs"}, {"link", "Handbook"}}},
		{"openapi", org + "/openapi/broken", "broken", [][2]string{{"heading", "Problems of the last processing"}, {"heading", "Versions"}}},
		{"openapi-versions", org + "/openapi/petstore", "petstore", [][2]string{{"table", "Versions"}}},
	}
	for _, p := range pages {
		b.Open(p.path, http.StatusOK)
		b.H1(p.h1)
		for _, c := range p.has {
			if !b.Has(c[0], c[1]) {
				t.Errorf("%s: no %s named %q", p.name, c[0], c[1])
			}
		}
		b.ShootViews("app-"+p.name, "main h1")
	}
}
