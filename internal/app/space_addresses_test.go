package app_test

import (
	"net/http"
	"strings"
	"testing"

	"quire/internal/quire"
)

// TestSpacePagesBesideAppAddresses gives a space top-level pages slugged
// like the app's own pages of a space (search, revisions, sharing) and a
// page below "revisions": each opens at its own path with its own
// title, the app's pages still open under "~/", and the old addresses of
// the app's pages now name pages.
func TestSpacePagesBesideAppAddresses(t *testing.T) {
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newSpaceFixture(t, h)
		top := ""
		h.writeAndMerge(t, f.Space.ID, "Pages named like the app's",
			pageChange("search", "How to search", "search", "Use quoted words.\n", &top),
			pageChange("revisions", "Revision policy", "revisions", "Every merge is a revision.\n", &top),
			pageChange("numbering", "Old numbering", "numbering", "Revisions were numbered once.\n", ptr("revisions")),
			pageChange("sharing", "Sharing rules", "sharing", "Share with teams.\n", &top))
		h.awaitIndexed(t, f.Space.ID)
		sp, err := h.Store.Space(t.Context(), f.Space.ID)
		if err != nil {
			t.Fatal(err)
		}
		reader := h.newUser(t, "rita@acme.test", "Rita Reader", quire.RoleRead)
		c := h.client(t, h.signIn(t, reader))
		base := "/app/s/" + f.Space.ID
		rev := base + "/~/revisions/" + sp.Revision
		for _, tc := range []struct {
			path string
			want []string
		}{
			{base + "/search", []string{"<h1>How to search</h1>", "Use quoted words.", `aria-current="page">How to search`}},
			{base + "/revisions", []string{"<h1>Revision policy</h1>", "Every merge is a revision."}},
			{base + "/revisions/numbering", []string{"<h1>Old numbering</h1>", "Revisions were numbered once."}},
			{base + "/sharing", []string{"<h1>Sharing rules</h1>", "Share with teams."}},
			{rev + "/revisions/numbering", []string{"<h1>Old numbering</h1>", "You are reading the current revision"}},
			{base + "/~/search?q=zebrafish", []string{"<h1>Search Handbook</h1>", "<mark>zebrafish</mark>"}},
			{base + "/~/revisions", []string{"<h1>Revisions</h1>", "Pages named like the app", `href="` + rev + `"`}},
			{base + "/~/sharing", []string{"<h1>Sharing</h1>"}},
			{base, []string{`href="` + base + `/search"`, `href="` + base + `/sharing"`,
				`href="` + base + `/~/revisions">Revisions</a>`, `href="` + base + `/~/sharing">Sharing</a>`, `action="` + base + `/~/search"`}},
		} {
			status, _, body := h.get(t, c, tc.path)
			if status != http.StatusOK {
				t.Errorf("GET %s: %d, want 200", tc.path, status)
				continue
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s: no %q", tc.path, w)
				}
			}
		}
		// The old addresses of the app's pages are page paths now.
		for _, p := range []string{base + "/revisions/" + f.OldRevision, base + "/revisions/" + f.OldRevision + "/welcome", base + "/search.json?q=zebrafish"} {
			if status, _, _ := h.get(t, c, p); status != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, status)
			}
		}
	})
}
