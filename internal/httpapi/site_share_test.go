package httpapi

import (
	"strings"
	"testing"
)

// TestSiteShareLinkKeys checks that listing a site's share links shows
// their keys (in their published addresses) only to the roles that may
// create links: a key opens a share-link site to anyone holding it.
func TestSiteShareLinkKeys(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		site := ts.newSite(t, map[string]any{"title": "Shared", "visibility": "share-link"})
		ts.must(t, 200, "POST", ts.sitePath(site, "/publish"), admin, nil)
		link := ts.must(t, 201, "POST", ts.sitePath(site, "/share-links"), admin, map[string]any{"name": "Reviewers"})
		key := str(link, "urls.published")
		if !strings.Contains(key, "/~share/") {
			t.Fatalf("created link's address %q has no key", key)
		}
		for _, c := range []string{cAdmin, cCreate} {
			l := ts.must(t, 200, "GET", ts.sitePath(site, "/share-links"), ts.token(c), nil)
			if got := str(items(t, l)[0], "urls.published"); got != key {
				t.Errorf("%s lists the link at %q, want %q", c, got, key)
			}
		}
		for _, c := range []string{cEdit, cReview, cComment, cRead} {
			l := ts.must(t, 200, "GET", ts.sitePath(site, "/share-links"), ts.token(c), nil)
			it := items(t, l)[0]
			wantFields(t, it, map[string]any{"id": str(link, "id"), "name": "Reviewers", "active": true})
			wantAbsent(t, it, "urls.published")
		}
	})
}
