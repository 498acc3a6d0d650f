package httpapi

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// publishingAuth reads a site's publishing authentication as the admin.
func (ts *testServer) publishingAuth(t *testing.T, site string) map[string]any {
	t.Helper()
	return ts.must(t, 200, "GET", ts.sitePath(site, "/publishing/auth"), ts.token(cAdmin), nil)
}

// visitorToken signs claims under a private key read from the API.
func visitorToken(t *testing.T, key string, claims map[string]any) string {
	t.Helper()
	token, err := service.SignVisitorToken([]byte(key), claims)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func TestSitePublishingAuth(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		s := ts.newReaderSite(t)
		path := ts.sitePath(s.id, "/publishing/auth")

		// Made with the site: a random key, the custom backend, no fallback.
		a := ts.publishingAuth(t, s.id)
		wantFields(t, a, map[string]any{"object": "publishing-auth", "backend": "custom"})
		wantAbsent(t, a, "fallbackURL")
		key := str(a, "privateKey")
		if len(key) < 40 {
			t.Fatalf("private key %q is short", key)
		}
		wantFields(t, ts.publishingAuth(t, s.id), map[string]any{"privateKey": key})
		other := ts.publishingAuth(t, ts.newSite(t, map[string]any{"title": "Other"}))
		if str(other, "privateKey") == key {
			t.Fatal("two sites share a private key")
		}

		// Sealed at rest: the store never holds the key in the clear.
		stored, err := ts.Store.SitePublishingAuth(context.Background(), s.id)
		if err != nil {
			t.Fatal(err)
		}
		if stored.SealedKey == "" || strings.Contains(stored.SealedKey, key) {
			t.Fatalf("stored key %q is not sealed", stored.SealedKey)
		}

		// The fallback URL: set, kept when omitted, removed by null.
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"backend": "custom", "fallbackURL": "https://example.com/sign-in?from=docs"}),
			map[string]any{"fallbackURL": "https://example.com/sign-in?from=docs", "privateKey": key})
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"backend": "custom"}),
			map[string]any{"fallbackURL": "https://example.com/sign-in?from=docs"})

		// The reader checks tokens against the key the API gives.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "visitor-auth"})
		old := visitorToken(t, key, map[string]any{"isBeta": true})
		ts.wantVisit(t, 200, "/sites/docs/install?jwt_token="+old, []string{"Run the installer."})
		ts.wantVisit(t, 200, "/sites/docs/install", nil, "Cookie", "gitbook-visitor-token="+old)
		// A visitor without a valid token is sent to the fallback URL.
		r := ts.wantVisit(t, 302, "/sites/docs/install", nil)
		loc, err := url.Parse(r.Header.Get("Location"))
		if err != nil || loc.Host != "example.com" || loc.Path != "/sign-in" || loc.Query().Get("from") != "docs" || loc.Query().Get("location") != "/install" {
			t.Fatalf("fallback redirect to %q", r.Header.Get("Location"))
		}
		ts.wantVisit(t, 302, "/sites/docs/", nil, "Cookie", "gitbook-visitor-token="+visitorToken(t, "not the key", map[string]any{"sub": "reader"}))
		ts.must(t, 200, "PATCH", path, admin, rawBody(`{"backend":"custom","fallbackURL":null}`))
		wantAbsent(t, ts.publishingAuth(t, s.id), "fallbackURL")
		ts.wantVisit(t, 401, "/sites/docs/install", []string{"Sign-in required"})

		// Regenerating replaces the key: the old token opens nothing from
		// the next request on, one signed with the new key does.
		regen := ts.must(t, 200, "POST", path+"/regenerate", admin, nil)
		next := str(regen, "privateKey")
		if next == key || len(next) != len(key) {
			t.Fatalf("regenerated key %q (was %q)", next, key)
		}
		wantFields(t, regen, map[string]any{"object": "publishing-auth", "backend": "custom"})
		wantFields(t, ts.publishingAuth(t, s.id), map[string]any{"privateKey": next})
		ts.wantVisit(t, 401, "/sites/docs/install", nil, "Cookie", "gitbook-visitor-token="+old)
		ts.wantVisit(t, 401, "/sites/docs/install?jwt_token="+old, nil)
		ts.wantVisit(t, 200, "/sites/docs/install?jwt_token="+visitorToken(t, next, map[string]any{"sub": "reader"}), []string{"Run the installer."})
		// Signed claims still reach adaptive content on a public site.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "public"})
		ts.must(t, 200, "PUT", ts.sitePath(s.id, "/adaptive-schema"), admin, map[string]any{"jsonSchema": visitorSchema()})
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/sections/"+s.apiSection), admin, map[string]any{"condition": "visitor.claims.isBeta"})
		ts.wantVisit(t, 404, "/sites/docs/api/?jwt_token="+old, nil)
		ts.wantVisit(t, 200, "/sites/docs/api/?jwt_token="+visitorToken(t, next, map[string]any{"isBeta": true}), []string{"Every endpoint."})

		// Only the organization's admins read or change it.
		for _, c := range []string{cCreate, cEdit, cRead} {
			ts.mustError(t, 403, "GET", path, ts.token(c), nil)
			ts.mustError(t, 403, "PATCH", path, ts.token(c), map[string]any{"backend": "custom"})
			ts.mustError(t, 403, "POST", path+"/regenerate", ts.token(c), nil)
		}
		ts.mustError(t, 404, "GET", path, ts.token(cNonMember), nil)
		ts.mustError(t, 404, "GET", ts.sitePath("nosuch", "/publishing/auth"), admin, nil)
		ts.mustError(t, 404, "POST", ts.sitePath("nosuch", "/publishing/auth/regenerate"), admin, nil)
		wantFields(t, ts.publishingAuth(t, s.id), map[string]any{"privateKey": next})

		// Deleting the site deletes its key.
		ts.must(t, 205, "DELETE", ts.sitePath(s.id, ""), admin, nil)
		if _, err := ts.Store.SitePublishingAuth(context.Background(), s.id); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Fatalf("after the site's deletion: %v", err)
		}
	})
}

// TestSitePublishingAuthOlderSite reads the publishing authentication of a
// site made before sites had one: concurrent first reads all get the one
// key made.
func TestSitePublishingAuthOlderSite(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		now := time.Now().UTC().Truncate(time.Millisecond)
		site := &quire.Site{ID: quire.NewID(), OrgID: ts.Org, Type: quire.SiteBasic, Title: "Older", Visibility: quire.VisibilityVisitorAuth,
			Published: true, AgentsContext: quire.AgentsIncluded, CreatedAt: now, UpdatedAt: now}
		if err := ts.Store.CreateSite(context.Background(), site); err != nil {
			t.Fatal(err)
		}
		const n = 6
		keys := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := ts.send(t, "GET", ts.sitePath(site.ID, "/publishing/auth"), ts.token(cAdmin), nil)
				if res.Status != 200 {
					t.Errorf("read %d: %d %s", i, res.Status, res.Body)
					return
				}
				keys[i] = str(res.obj(t), "privateKey")
			}()
		}
		wg.Wait()
		for i := range n {
			if keys[i] == "" || keys[i] != keys[0] {
				t.Fatalf("concurrent first reads got keys %q", keys)
			}
		}
		ts.wantVisit(t, 200, "/sites/"+site.ID+"/robots.txt?jwt_token="+visitorToken(t, keys[0], map[string]any{"sub": "reader"}), nil)
	})
}
