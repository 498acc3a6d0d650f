package app_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
)

// withAdminAreas gives the app the sites, integrations and OpenAPI
// services, as the server does.
func withAdminAreas(h *harness, cfg *httpapi.Config, acfg *app.Config) {
	acfg.Sites = cfg.SiteService
	acfg.Integrations = service.NewIntegrations(h.Svc, nil, nil, service.IntegrationOptions{BaseURL: h.URL})
	acfg.OpenAPI = service.NewOpenAPISpecs(h.Svc, nil, service.OpenAPIOptions{})
	cfg.Integrations, cfg.OpenAPI = acfg.Integrations, acfg.OpenAPI
}

// seedAdminPages creates the fixture through the services.
func seedAdminPages(t *testing.T, h *harness, acfg *app.Config) *quire.Site {
	t.Helper()
	ctx := context.Background()
	sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	site, err := acfg.Sites.CreateSite(ctx, h.Admin, h.Org, service.SiteCreate{Title: "Docs portal", Spaces: []string{sp.Space.ID}})
	if err != nil {
		t.Fatal(err)
	}
	name, published, vis := "portal", true, quire.VisibilityUnlisted
	if site, err = acfg.Sites.UpdateSite(ctx, h.Org, site.ID, quire.SiteUpdate{Basename: &name, Published: &published, Visibility: &vis}, nil); err != nil {
		t.Fatal(err)
	}
	ints := acfg.Integrations
	if _, err := ints.Publish(ctx, h.Admin, "watcher", service.PublishInput{Organization: h.Org, Script: "export default {};",
		Manifest: quire.IntegrationManifest{Title: "Watcher", Description: "Watches your pages change.", Visibility: quire.IntegrationPrivate,
			Target: "all", Scopes: []string{quire.ScopeSpaceContentRead}}}); err != nil {
		t.Fatal(err)
	}
	_, inst, err := ints.Install(ctx, h.Admin, "watcher", h.Org)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ints.InstallOn(ctx, h.Admin, "watcher", inst.ID, quire.OnSpace, sp.Space.ID); err != nil {
		t.Fatal(err)
	}
	specs := acfg.OpenAPI
	spec, err := specs.Create(ctx, h.Org, "petstore", service.OpenAPISource{Text: petstore})
	if err != nil {
		t.Fatal(err)
	}
	if err := specs.RunJob(ctx, service.OpenAPIJob{Spec: spec.ID, Generation: spec.Generation}); err != nil {
		t.Fatal(err)
	}
	bad, err := specs.Create(ctx, h.Org, "broken", service.OpenAPISource{Text: "openapi: [not a document"})
	if err != nil {
		t.Fatal(err)
	}
	if err := specs.RunJob(ctx, service.OpenAPIJob{Spec: bad.ID, Generation: bad.Generation}); err != nil {
		t.Fatal(err)
	}
	return site
}

// petstore is a small valid OpenAPI document.
const petstore = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      summary: List pets
      responses:
        "200":
          description: The pets
`

// TestAdminPagesAccess opens each page behind the API's urls.app: for a
// member allowed to read the object, the page with what it shows; for
// outsiders and unknown ids, the same 404 as a missing page.
func TestAdminPagesAccess(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		acfgs = map[*harness]*app.Config{}
	)
	keep := func(h *harness, cfg *httpapi.Config, acfg *app.Config) {
		withAdminAreas(h, cfg, acfg)
		mu.Lock()
		acfgs[h] = acfg
		mu.Unlock()
	}
	forEachEngine(t, func(t *testing.T, h *harness) {
		mu.Lock()
		acfg := acfgs[h]
		mu.Unlock()
		site := seedAdminPages(t, h, acfg)
		org := "/app/o/" + h.Org
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))
		outsider := h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
		_, _, missing := h.get(t, outsider, "/app/o/nosuchorg")

		pages := []struct {
			path string
			want []string
			// reader is the status a member with the read role gets.
			reader int
		}{
			{org + "/sites", []string{"<h1>Sites</h1>", "Docs portal", h.URL + "/sites/portal/", "Unlisted"}, http.StatusOK},
			{org + "/sites/" + site.ID, []string{"<h1>Docs portal</h1>", "Handbook", `href="` + h.URL + `/sites/portal/"`, "Unlisted: anyone with the address", "Site spaces"}, http.StatusOK},
			{"/app/integrations/watcher", []string{"<h1>Watcher</h1>", "Watches your pages change.", quire.ScopeSpaceContentRead, "Acme Docs"}, http.StatusOK},
			{org + "/integrations/watcher", []string{"<h1>Watcher</h1>", "Installation in Acme Docs", ">Handbook</a>", quire.ScopeSpaceContentRead}, http.StatusForbidden},
			{org + "/openapi", []string{"petstore", "broken", "Failed: the source is not a valid OpenAPI document"}, http.StatusOK},
			{org + "/openapi/petstore", []string{"<h1>petstore</h1>", "Processed", "(latest)", "/v1/openapi-files/"}, http.StatusOK},
			{org + "/openapi/broken", []string{"<h1>broken</h1>", "Problems of the last processing", "No version yet"}, http.StatusOK},
		}
		for _, p := range pages {
			status, _, body := h.get(t, admin, p.path)
			if status != http.StatusOK {
				t.Errorf("admin %s: %d\n%s", p.path, status, body)
				continue
			}
			for _, w := range p.want {
				if !strings.Contains(body, w) {
					t.Errorf("admin %s: no %q", p.path, w)
				}
			}
			if status, _, _ := h.get(t, reader, p.path); status != p.reader {
				t.Errorf("reader %s: %d, want %d", p.path, status, p.reader)
			}
			status, _, body = h.get(t, outsider, p.path)
			if status != http.StatusNotFound || body != missing {
				t.Errorf("outsider %s: %d, page differs from a missing one's: %v", p.path, status, body != missing)
			}
		}
		for _, path := range []string{org + "/sites/nosuchsite", "/app/integrations/nosuch", org + "/integrations/nosuch",
			org + "/openapi/nosuch", "/app/o/nosuchorg/sites/" + site.ID} {
			if status, _, body := h.get(t, admin, path); status != http.StatusNotFound || body != missing {
				t.Errorf("admin %s: %d, page differs from a missing one's: %v", path, status, body != missing)
			}
		}
	}, keep)
}

// TestAdminPagesUnavailable checks that a server without the services
// says so, rather than answering as if the objects did not exist.
func TestAdminPagesUnavailable(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		admin := h.client(t, h.signIn(t, h.Admin))
		for _, path := range []string{"/app/o/" + h.Org + "/sites", "/app/o/" + h.Org + "/sites/x", "/app/integrations/x",
			"/app/o/" + h.Org + "/integrations/x", "/app/o/" + h.Org + "/openapi", "/app/o/" + h.Org + "/openapi/x"} {
			status, _, body := h.get(t, admin, path)
			if status != http.StatusServiceUnavailable || !strings.Contains(body, "not available on this server") {
				t.Errorf("%s: %d\n%s", path, status, body)
			}
		}
	}, func(h *harness, cfg *httpapi.Config, acfg *app.Config) { acfg.Sites = nil })
}
