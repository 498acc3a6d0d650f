package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"quire/internal/gitremote"
)

// redirectRepo is a repository whose .gitbook.yaml declares redirects:
// two to pages, one to a file that is no page.
func redirectRepo() gitremote.Files {
	return gitremote.Files{
		".gitbook.yaml": []byte("root: ./docs/\n\nredirects:\n  old/intro: README.md\n  getting-started: ./start/install.md \n" +
			"  gone: nowhere.md\n  start/install: README.md\n"),
		"docs/SUMMARY.md":       []byte("# Table of contents\n\n* [Welcome](README.md)\n* [Install](start/install.md)\n"),
		"docs/README.md":        []byte("# Welcome\n\nHello.\n"),
		"docs/start/install.md": []byte("# Install\n\nRun the installer.\n"),
	}
}

// pushFiles writes files as a new commit on main of the repository at url.
func pushFiles(t *testing.T, url string, files gitremote.Files) {
	t.Helper()
	rem := gitremote.New(gitremote.Options{AllowLocal: true})
	if _, _, err := rem.Push(t.Context(), url, "refs/heads/main", "", files, "Docs"); err != nil {
		t.Fatalf("push: %v", err)
	}
}

// wantRedirect checks that a reader address answers 301 to location.
func (ts *testServer) wantRedirect(t *testing.T, path, location string) {
	t.Helper()
	r := ts.wantVisit(t, http.StatusMovedPermanently, path, nil)
	if got := r.Header.Get("Location"); got != location {
		t.Fatalf("GET %s: Location %q, want %q", path, got, location)
	}
}

// exportSpace exports a space to a new repository and returns the
// repository and its checkout.
func (ts *testServer) exportSpace(t *testing.T, space string) (string, *gitremote.Checkout) {
	t.Helper()
	out := bareRepo(t)
	ts.must(t, http.StatusNoContent, "POST", gitPath(space, "export"), ts.token(cAdmin),
		map[string]any{"url": out, "ref": "refs/heads/main", "commitMessage": "Export"})
	wantFields(t, ts.waitGit(t, space), map[string]any{"operation.state": "success"})
	co, err := gitremote.New(gitremote.Options{AllowLocal: true}).Fetch(t.Context(), out, "refs/heads/main", "")
	if err != nil {
		t.Fatal(err)
	}
	return out, co
}

// wantRedirectsIn checks that an exported .gitbook.yaml holds each line.
func wantRedirectsIn(t *testing.T, co *gitremote.Checkout, lines []string) {
	t.Helper()
	cfg := string(co.Files[".gitbook.yaml"])
	for _, want := range lines {
		if !strings.Contains(cfg, want) {
			t.Errorf(".gitbook.yaml lacks %q:\n%s", want, cfg)
		}
	}
}

func TestGitRedirectsAnswerOnTheSite(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		s := ts.newReaderSite(t) // the API space is at /sites/docs/api/
		repo := bareRepo(t)
		pushFiles(t, repo, redirectRepo())
		importRepo := func(space, url string) map[string]any {
			t.Helper()
			ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin,
				map[string]any{"url": url, "ref": "refs/heads/main"})
			return ts.waitGit(t, space)
		}
		info := importRepo(s.api, repo)
		wantFields(t, info, map[string]any{"operation.state": "success"})
		if w, _ := json.Marshal(info["operation"]); !strings.Contains(string(w), `redirect \"gone\" leads to nowhere.md, which is not a page`) {
			t.Errorf("the redirect to no page is not reported: %s", w)
		}
		tree, _ := ts.pageTree(t, s.api)
		if want := "document welcome \"Welcome\"\ndocument install \"Install\"\n"; tree != want {
			t.Fatalf("tree:\n%s\nwant:\n%s", tree, want)
		}

		// Old paths lead to the pages their target files became, under
		// the site space's own prefix; .md asks for the Markdown.
		ts.wantRedirect(t, "/sites/docs/api/getting-started", "/sites/docs/api/install")
		ts.wantRedirect(t, "/sites/docs/api/getting-started/", "/sites/docs/api/install")
		ts.wantRedirect(t, "/sites/docs/api/getting-started.md", "/sites/docs/api/install.md")
		ts.wantRedirect(t, "/sites/docs/api/old/intro", "/sites/docs/api/")
		// A target that is no page, or a redirect of another space, is
		// not found; a page at a path wins over a redirect.
		ts.wantVisit(t, http.StatusNotFound, "/sites/docs/api/gone", nil)
		ts.wantVisit(t, http.StatusNotFound, "/sites/docs/getting-started", nil)
		ts.wantVisit(t, http.StatusOK, "/sites/docs/api/install", []string{"Run the installer."})

		// A revision made in the editor keeps the redirects, which follow
		// their page where it moves.
		_, ids := ts.pageTree(t, s.api)
		cr := str(ts.newChangeRequest(t, s.api, "Rename"), "id")
		ts.writeContent(t, s.api, cr, updatePage(ids["install"], "slug", "setup"))
		ts.mergeCR(t, s.api, cr)
		ts.wantRedirect(t, "/sites/docs/api/getting-started", "/sites/docs/api/setup")

		// An export writes them back to .gitbook.yaml, leading to where
		// the page is written now, and a round trip keeps them; pages go
		exported := []string{"redirects:\n", "  getting-started: setup.md\n", "  gone: nowhere.md\n", "  old/intro: README.md\n"}
		out, co := ts.exportSpace(t, s.api)
		wantRedirectsIn(t, co, exported)
		// under the content root the repository named.
		if co.Files["docs/setup.md"] == nil {
			t.Errorf("the renamed page is not at docs/setup.md: %v", co.Files)
		}
		wantFields(t, importRepo(s.api, out), map[string]any{"operation.state": "success"})
		ts.wantRedirect(t, "/sites/docs/api/getting-started", "/sites/docs/api/setup")
		ts.wantRedirect(t, "/sites/docs/api/old/intro", "/sites/docs/api/")

		// A duplicate of the space has its pages, so its redirects too.
		dup := str(ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+s.api+"/duplicate", admin, nil), "id")
		_, co = ts.exportSpace(t, dup)
		wantRedirectsIn(t, co, exported)

		// An import without redirects removes them.
		files := redirectRepo()
		files[".gitbook.yaml"] = []byte("root: ./docs/\n")
		pushFiles(t, repo, files)
		wantFields(t, importRepo(s.api, repo), map[string]any{"operation.state": "success"})
		ts.wantVisit(t, http.StatusNotFound, "/sites/docs/api/getting-started", nil)
		ts.wantVisit(t, http.StatusNotFound, "/sites/docs/api/old/intro", nil)
		ts.wantVisit(t, http.StatusOK, "/sites/docs/api/install", []string{"Run the installer."})
	})
}

func TestGitImportRefusesMalformedRedirects(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		for _, tc := range []struct{ yaml, want string }{
			{"redirects:\n  old: https://evil.example/x\n", `redirect \"old\" → \"https://evil.example/x\": the target must be a file under the root`},
			{"redirects:\n  old: //evil.example/x.md\n", `the target must be a file under the root`},
			{"redirects:\n  old: ../../etc/passwd\n", `the target must be a file under the root`},
			{"redirects:\n  'https://evil.example/x': README.md\n", `the old path must be a path within the space`},
			{"redirects:\n  a/../../b: README.md\n", `the old path must be a path within the space`},
		} {
			url := pushRepo(t, map[string]string{".gitbook.yaml": tc.yaml, "README.md": "# Welcome\n"})
			space := ts.newSpace(t, "Docs")
			rev := ts.spaceRevision(t, space)
			ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin,
				map[string]any{"url": url, "ref": "refs/heads/main"})
			info := ts.waitGit(t, space)
			wantFields(t, info, map[string]any{"operation.state": "failure"})
			if w, _ := json.Marshal(info["operation"]); !strings.Contains(string(w), tc.want) {
				t.Errorf("%q: the failure does not say %q: %s", tc.yaml, tc.want, w)
			}
			if got := ts.spaceRevision(t, space); got != rev {
				t.Errorf("%q: a refused import moved the space", tc.yaml)
			}
		}
	})
}
