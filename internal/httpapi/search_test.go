package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// awaitIndexed waits until the search index holds the space's current
// revision: the content event of its last move has been handled.
func (ts *testServer) awaitIndexed(t *testing.T, space string) {
	t.Helper()
	want := ts.spaceRevision(t, space)
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := ts.Store.SearchIndexRevision(context.Background(), space)
		if err != nil {
			t.Fatalf("index revision: %v", err)
		}
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the search index of %s holds %q, never reached %q", space, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// searchTitles runs a space search and returns the titles of the pages
// found, best first.
func (ts *testServer) searchTitles(t *testing.T, space, query string) []string {
	t.Helper()
	res := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/search?query="+url.QueryEscape(query), ts.token(cRead), nil)
	var out []string
	for _, it := range items(t, res) {
		out = append(out, str(it, "title"))
	}
	return out
}

// wantTitles checks the pages a search finds.
func wantTitles(t *testing.T, query string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("search %q found %q, want %q", query, got, want)
	}
}

func TestSearchSpaceContent(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Guide")
		cr := str(ts.newChangeRequest(t, sp, "Pages"), "id")
		res := ts.writeContent(t, sp, cr,
			insertPage("Installation", "Run the installer first.\n\n## Configuring the server\n\nEdit the config file and restart the daemons.\n"),
			insertPage("Daemons", "Background processes."),
			insertPage("Café", "Le café est délicieux."),
			insertPage("中文", "我们的文档系统支持全文搜索。"),
			insertPage("Secret", "The password lives here.", "hidden", true),
		)
		install := changedPage(t, res, 0)
		ts.mergeCR(t, sp, cr)
		ts.awaitIndexed(t, sp)

		wantTitles(t, "instal", ts.searchTitles(t, sp, "instal"), "Installation")
		wantTitles(t, "restarting", ts.searchTitles(t, sp, "restarting"), "Installation")
		wantTitles(t, "cafe", ts.searchTitles(t, sp, "cafe"), "Café")
		wantTitles(t, "DÉLICIEUX", ts.searchTitles(t, sp, "DÉLICIEUX"), "Café")
		wantTitles(t, "文档", ts.searchTitles(t, sp, "文档"), "中文")
		wantTitles(t, "全文搜索", ts.searchTitles(t, sp, "全文搜索"), "中文")
		wantTitles(t, "文搜档", ts.searchTitles(t, sp, "文搜档"))
		wantTitles(t, "password", ts.searchTitles(t, sp, "password"))
		wantTitles(t, "installer wombat", ts.searchTitles(t, sp, "installer wombat"))
		wantTitles(t, "!!!", ts.searchTitles(t, sp, "!!!"))
		// A title hit ranks above a body hit.
		wantTitles(t, "daemons", ts.searchTitles(t, sp, "daemons"), "Daemons", "Installation")

		// Sections: the heading's, with its anchor, and a snippet.
		found := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/search?query=config+daemon", ts.token(cRead), nil)
		wantFields(t, found, map[string]any{"items.0.id": install, "items.0.title": "Installation", "items.0.path": "installation",
			"items.0.urls.app":         testBaseURL + "/app/s/" + sp + "/installation",
			"items.0.sections.0.title": "Configuring the server", "items.0.sections.0.path": "installation#configuring-the-server",
			"items.0.sections.0.body":     "Edit the config file and restart the daemons.",
			"items.0.sections.0.urls.app": testBaseURL + "/app/s/" + sp + "/installation#configuring-the-server"})

		// Paging.
		first := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/search?limit=1&query=daemons", ts.token(cRead), nil)
		if len(items(t, first)) != 1 || str(first, "next.page") == "" {
			t.Fatalf("first page: %v", first)
		}
		second := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/search?limit=1&query=daemons&page="+str(first, "next.page"), ts.token(cRead), nil)
		wantFields(t, second, map[string]any{"items.0.title": "Installation"})
		wantAbsent(t, second, "next")

		// The index follows a merge: the changed page alone.
		cr2 := str(ts.newChangeRequest(t, sp, "Rewrite"), "id")
		ts.writeContent(t, sp, cr2, updatePage(install, "document", md("Wombats install themselves.")))
		ts.mergeCR(t, sp, cr2)
		ts.awaitIndexed(t, sp)
		wantTitles(t, "wombat", ts.searchTitles(t, sp, "wombat"), "Installation")
		wantTitles(t, "config", ts.searchTitles(t, sp, "config"))
		wantTitles(t, "café", ts.searchTitles(t, sp, "café"), "Café")

		// Deleting the space takes it out of results; restoring puts it back.
		org := ts.must(t, 200, "GET", ts.OrgPath("/search?query=wombat"), ts.token(cAdmin), nil)
		wantFields(t, org, map[string]any{"items.0.id": sp, "items.0.title": "Guide", "items.0.pages.0.title": "Installation"})
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+sp, ts.token(cAdmin), nil)
		org = ts.must(t, 200, "GET", ts.OrgPath("/search?query=wombat"), ts.token(cAdmin), nil)
		if n := len(items(t, org)); n != 0 {
			t.Errorf("a deleted space is found: %v", org)
		}
		ts.must(t, http.StatusOK, "POST", "/v1/spaces/"+sp+"/restore", ts.token(cAdmin), nil)
		org = ts.must(t, 200, "GET", ts.OrgPath("/search?query=wombat"), ts.token(cAdmin), nil)
		wantFields(t, org, map[string]any{"items.0.id": sp})

		// Bad queries.
		ts.must(t, http.StatusBadRequest, "GET", "/v1/spaces/"+sp+"/search", ts.token(cRead), nil)
		ts.must(t, http.StatusBadRequest, "GET", "/v1/spaces/"+sp+"/search?query="+strings.Repeat("a", 513), ts.token(cRead), nil)
		ts.must(t, http.StatusBadRequest, "GET", "/v1/spaces/"+sp+"/search?query=a&page=zz", ts.token(cRead), nil)
	})
}

func TestSearchOrganizationContent(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		open := ts.newSpace(t, "Open")
		closed := ts.newSpace(t, "Closed")
		ts.seedPage(t, open, "Otters", "Otters hold hands.")
		ts.seedPage(t, closed, "Otter secrets", "Otters keep secrets.")
		ts.grantUser(t, open, ts.user(cGuest).ID, "read")
		ts.awaitIndexed(t, open)
		ts.awaitIndexed(t, closed)

		admin := ts.must(t, 200, "GET", ts.OrgPath("/search?query=otters"), ts.token(cAdmin), nil)
		if n := len(items(t, admin)); n != 2 {
			t.Fatalf("admin finds %d spaces: %v", n, admin)
		}
		guest := ts.must(t, 200, "GET", ts.OrgPath("/search?query=otters"), ts.token(cGuest), nil)
		wantFields(t, guest, map[string]any{"items.0.id": open, "items.0.pages.0.title": "Otters"})
		if n := len(items(t, guest)); n != 1 {
			t.Errorf("guest finds %d spaces: %v", n, guest)
		}
		ts.must(t, http.StatusNotFound, "GET", "/v1/spaces/"+closed+"/search?query=otters", ts.token(cGuest), nil)
	})
}

func TestSearchFollowsGitImport(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		repo := func(welcome string) string {
			return pushRepo(t, map[string]string{
				"SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n  * [On Linux](linux.md)\n",
				"README.md":  "# Welcome\n\n" + welcome + "\n",
				"install.md": "---\nhidden: true\n---\n\n# Install\n\nPelicans nest.\n",
				"linux.md":   "# On Linux\n\nPelicans swim.\n",
			})
		}
		space := ts.newSpace(t, "Docs")
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin, map[string]any{"url": repo("Pelicans fly."), "ref": "refs/heads/main"})
		wantFields(t, ts.waitGit(t, space), map[string]any{"operation.state": "success"})
		ts.awaitIndexed(t, space)
		// A hidden page and the pages under it stay out.
		wantTitles(t, "pelicans", ts.searchTitles(t, space, "pelicans"), "Welcome")
		first := ts.spaceRevision(t, space)

		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin, map[string]any{"url": repo("Flamingos fly."), "ref": "refs/heads/main"})
		wantFields(t, ts.waitGit(t, space), map[string]any{"operation.state": "success"})
		for deadline := time.Now().Add(time.Minute); ts.spaceRevision(t, space) == first; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the second import never moved the space")
			}
		}
		ts.awaitIndexed(t, space)
		wantTitles(t, "flamingos", ts.searchTitles(t, space, "flamingos"), "Welcome")
		wantTitles(t, "pelicans", ts.searchTitles(t, space, "pelicans"))
	})
}
