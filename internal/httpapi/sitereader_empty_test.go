package httpapi

import (
	"strings"
	"testing"
)

// TestSiteReaderEmptySpace reads a published site whose space has no page
// yet: its root shows the site, with its navigation, and says nothing is
// published there yet, with 200 rather than "page not found".
func TestSiteReaderEmptySpace(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		empty := ts.newSpace(t, "Handbook")
		api := ts.newSpace(t, "API")
		ts.seedPage(t, api, "Reference", "Every endpoint.")
		site := ts.newSite(t, map[string]any{"title": "Team docs", "spaces": []string{empty}})
		ts.must(t, 201, "POST", ts.sitePath(site, "/sections"), admin, map[string]any{"spaceId": api, "title": "API"})
		ts.must(t, 200, "PATCH", ts.sitePath(site, ""), admin, map[string]any{"basename": "team"})
		ts.must(t, 200, "POST", ts.sitePath(site, "/publish"), admin, nil)

		r := ts.wantVisit(t, 200, "/sites/team/", []string{"Team docs", "Nothing is published here yet", `href="/sites/team/api/"`})
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("content type %q", ct)
		}
		if !strings.Contains(string(r.Body), `name="robots" content="noindex`) {
			t.Errorf("the empty page may be indexed: %.2000s", r.Body)
		}
		// Below it, pages still do not exist.
		ts.wantVisit(t, 404, "/sites/team/nowhere", nil)
		ts.wantVisit(t, 200, "/sites/team/api/", []string{"Every endpoint."})
	})
}
