package httpapi

import (
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/service"
)

// replica starts another API server over the same store, with a service
// and caches of its own, as another process of a deployment would run.
func (ts *testServer) replica(t *testing.T) *testServer {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(ts.Store, service.WithClock(ts.Clock.Now), service.WithLogger(quiet),
		service.WithEngine(content.New(content.WithClock(ts.Clock.Now))), service.WithBlobs(ts.Blobs))
	sites := service.NewSites(svc)
	hs := httptest.NewServer(New(svc, Config{BaseURL: testBaseURL, Logger: quiet, SiteService: sites}))
	t.Cleanup(hs.Close)
	r := *ts
	r.URL, r.Svc, r.Sites = hs.URL, svc, sites
	return &r
}

// TestSiteReaderReplicas checks that a server keeping a site in memory
// sees, at its next request, what another server changed: visibility, a
// revoked share link, a merge, the customization and the structure.
func TestSiteReaderReplicas(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		s := ts.newReaderSite(t)
		other := ts.replica(t)
		both := func(status int, path string, texts []string, headers ...string) {
			t.Helper()
			ts.wantVisit(t, status, path, texts, headers...)
			other.wantVisit(t, status, path, texts, headers...)
		}
		both(200, "/sites/docs/", []string{"Welcome", `href="/sites/docs/api/"`})
		both(200, "/sites/docs/install", []string{"Run the installer."})

		// Visibility and share links, changed on the first server.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "share-link"})
		other.wantVisit(t, 404, "/sites/docs/", nil)
		link := ts.must(t, 201, "POST", ts.sitePath(s.id, "/share-links"), admin, map[string]any{"name": "Readers"})
		pub := str(ts.must(t, 200, "GET", ts.sitePath(s.id, "/share-links"), admin, nil), "items.0.urls.published")
		key := strings.TrimSuffix(pub[strings.Index(pub, "/~share/")+len("/~share/"):], "/")
		both(200, "/sites/docs/~share/"+key+"/install", []string{"Run the installer."})
		both(200, "/sites/docs/install", []string{"Run the installer."}, "Cookie", "quire-site-share="+key)
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/share-links/"+str(link, "id")), admin, map[string]any{"active": false})
		other.wantVisit(t, 404, "/sites/docs/~share/"+key+"/install", nil)
		other.wantVisit(t, 404, "/sites/docs/install", nil, "Cookie", "quire-site-share="+key)
		ts.wantVisit(t, 404, "/sites/docs/~share/"+key+"/install", nil)
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/share-links/"+str(link, "id")), admin, map[string]any{"active": true})
		other.wantVisit(t, 200, "/sites/docs/~share/"+key+"/install", []string{"Run the installer."})
		ts.must(t, 205, "DELETE", ts.sitePath(s.id, "/share-links/"+str(link, "id")), admin, nil)
		other.wantVisit(t, 404, "/sites/docs/~share/"+key+"/install", nil)
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "public"})
		both(200, "/sites/docs/", []string{"Welcome"})

		// A merge into a published space.
		cr := str(ts.newChangeRequest(t, s.guides, "Changelog"), "id")
		ts.writeContent(t, s.guides, cr, insertPage("Changelog", "Version two is out."))
		ts.mergeCR(t, s.guides, cr)
		both(200, "/sites/docs/changelog", []string{"Version two is out."})

		// The customization and the structure.
		ts.must(t, 200, "PUT", ts.sitePath(s.id, "/customization"), admin, customization("Handbook"))
		other.wantVisit(t, 200, "/sites/docs/", []string{"Handbook"})
		ts.must(t, 200, "PUT", ts.sitePath(s.id, "/adaptive-schema"), admin, map[string]any{"jsonSchema": visitorSchema()})
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/sections/"+s.apiSection), admin, map[string]any{"condition": `visitor.claims.unsigned.lang == "fr"`})
		other.wantVisit(t, 404, "/sites/docs/api/", nil)
		if r := other.visit(t, "/sites/docs/"); strings.Contains(string(r.Body), `href="/sites/docs/api/"`) {
			t.Fatal("the other server shows a section hidden since")
		}

		// Unpublishing.
		ts.must(t, 200, "POST", ts.sitePath(s.id, "/unpublish"), admin, nil)
		both(404, "/sites/docs/", nil)
	})
}
