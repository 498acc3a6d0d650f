package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"quire/internal/gitremote"
	"quire/internal/jobs"
)

// bareRepo creates an empty bare repository and returns its file:// URL.
func bareRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "docs.git")
	if _, err := git.PlainInit(dir, true); err != nil {
		t.Fatalf("init bare repository: %v", err)
	}
	return "file://" + dir
}

// gitPath is a Git Sync operation path of a space.
func gitPath(space, op string) string { return "/v1/spaces/" + space + "/git/" + op }

// waitGit waits for the space's last Git Sync operation to end and
// returns the space's Git info.
func (ts *testServer) waitGit(t *testing.T, space string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		info := ts.must(t, http.StatusOK, "GET", gitPath(space, "info"), ts.token(cAdmin), nil)
		if s := str(info, "operation.state"); s != "running" {
			return info
		}
		if time.Now().After(deadline) {
			t.Fatalf("Git Sync of %s still running: %v", space, info)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pageTree renders a space's page tree as lines of path and title, and
// returns the ids by path.
func (ts *testServer) pageTree(t *testing.T, space string) (string, map[string]string) {
	t.Helper()
	l := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content/pages", ts.token(cAdmin), nil)
	var b strings.Builder
	byPath := map[string]string{}
	var walk func(pages []any, depth int)
	walk = func(pages []any, depth int) {
		for _, p := range pages {
			m := p.(map[string]any)
			fmt.Fprintf(&b, "%s%s %s %q\n", strings.Repeat("  ", depth), str(m, "type"), str(m, "path"), str(m, "title"))
			byPath[str(m, "path")] = str(m, "id")
			if kids, ok := m["pages"].([]any); ok {
				walk(kids, depth+1)
			}
		}
	}
	pages, _ := l["pages"].([]any)
	walk(pages, 0)
	return b.String(), byPath
}

func TestGitExportImportRoundTrip(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		cr := str(ts.newChangeRequest(t, space, "Content"), "id")
		ts.writeContent(t, space, cr,
			insertPage("Welcome", "Start with the **guide**.\n\n> [!NOTE]\n> Read it all."),
			insertPage("Guide", "The guide.\n\n1. one\n2. two", "ref", "guide"),
			insertPage("Setup", "How to set up.\n\n```go\nfmt.Println(1)\n```", "into", "guide"),
			insertFiles(inlineFile("logo.png", pngBytes(t, 3, 2))))
		ts.mergeCR(t, space, cr)
		before, ids := ts.pageTree(t, space)

		repo := bareRepo(t)
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "export"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "commitMessage": "Export the docs"})
		info := ts.waitGit(t, space)
		wantFields(t, info, map[string]any{"operation.state": "success", "operation.direction": "export"})
		exported := str(info, "operation.commit")
		if exported == "" {
			t.Fatalf("export recorded no commit: %v", info)
		}

		// A second export of the unchanged space pushes nothing.
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "export"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "commitMessage": "Again"})
		if got := str(ts.waitGit(t, space), "operation.commit"); got != exported {
			t.Fatalf("export of an unchanged space moved the branch: %s, then %s", exported, got)
		}

		// The export imports back into a new space as the same tree.
		other := ts.newSpace(t, "Copy")
		ts.must(t, http.StatusNoContent, "POST", gitPath(other, "import"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "repoCommitURL": "https://git.example/docs/commit/"})
		info = ts.waitGit(t, other)
		wantFields(t, info, map[string]any{"operation.state": "success", "operation.commit": exported})
		after, otherIDs := ts.pageTree(t, other)
		if after != before {
			t.Fatalf("imported tree differs:\n%s\nwant:\n%s", after, before)
		}
		for p := range ids {
			a := ts.pageMarkdown(t, "/v1/spaces/"+space, ids[p])
			b := ts.pageMarkdown(t, "/v1/spaces/"+other, otherIDs[p])
			if a != b {
				t.Errorf("page %s: imported\n%s\nwant\n%s", p, b, a)
			}
		}
		rev := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+other+"/content", admin, nil)
		wantFields(t, rev, map[string]any{"git.oid": exported, "git.message": "Export the docs",
			"git.url": "https://git.example/docs/commit/" + exported})
		files := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+other+"/content/files", admin, nil)
		if names := fieldsOf(items(t, files), "name"); !slices.Equal(names, []string{"logo.png"}) {
			t.Fatalf("imported files %v, want [logo.png]", names)
		}

		// Importing the same commit again keeps every page id.
		ts.must(t, http.StatusNoContent, "POST", gitPath(other, "import"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main"})
		wantFields(t, ts.waitGit(t, other), map[string]any{"operation.state": "success"})
		again, againIDs := ts.pageTree(t, other)
		if again != after {
			t.Fatalf("re-import changed the tree:\n%s\nwant:\n%s", again, after)
		}
		for p, id := range otherIDs {
			if againIDs[p] != id {
				t.Errorf("page %s: id %s after re-import, was %s", p, againIDs[p], id)
			}
		}

		// The space exported first keeps its ids when it imports its own export.
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main"})
		wantFields(t, ts.waitGit(t, space), map[string]any{"operation.state": "success"})
		if _, mine := ts.pageTree(t, space); !mapsEqual(mine, ids) {
			t.Fatalf("ids after importing the space's own export: %v, were %v", mine, ids)
		}
	})
}

// fieldsOf returns a string field of each item.
func fieldsOf(list []map[string]any, key string) []string {
	var out []string
	for _, m := range list {
		out = append(out, str(m, key))
	}
	return out
}

// mapsEqual compares two string maps.
func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestGitStandaloneImportLeavesTheSpace(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		src := ts.newSpace(t, "Source")
		ts.newContentFixture(t, src)
		repo := bareRepo(t)
		ts.must(t, http.StatusNoContent, "POST", gitPath(src, "export"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "commitMessage": "Export"})
		wantFields(t, ts.waitGit(t, src), map[string]any{"operation.state": "success"})

		dst := ts.newSpace(t, "Target")
		rev := ts.spaceRevision(t, dst)
		ts.must(t, http.StatusNoContent, "POST", gitPath(dst, "import"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "standalone": true})
		wantFields(t, ts.waitGit(t, dst), map[string]any{"operation.state": "success"})
		if got := ts.spaceRevision(t, dst); got != rev {
			t.Fatalf("a standalone import moved the space from %s to %s", rev, got)
		}
	})
}

func TestGitImportFailureLeavesTheSpaceAndHidesCredentials(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		ts.newContentFixture(t, space)
		before, _ := ts.pageTree(t, space)
		rev := ts.spaceRevision(t, space)

		// A server that is not a Git remote, reached with credentials.
		hs := httptest.NewServer(http.NotFoundHandler())
		t.Cleanup(hs.Close)
		url := strings.Replace(hs.URL, "http://", "http://robot:s3cr3t-t0ken@", 1) + "/acme/docs.git"
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin,
			map[string]any{"url": url, "ref": "refs/heads/main", "gitInfo": map[string]any{"provider": "github", "url": "https://github.com/acme/docs/tree/main"}})
		info := ts.waitGit(t, space)
		wantFields(t, info, map[string]any{"operation.state": "failure", "repoName": "acme/docs",
			"installationProvider": "github", "url": "https://github.com/acme/docs/tree/main"})
		if e := str(info, "operation.error"); !strings.Contains(e, "no Git repository there") {
			t.Fatalf("failure without its cause: %v", info)
		}
		after, _ := ts.pageTree(t, space)
		if after != before || ts.spaceRevision(t, space) != rev {
			t.Fatalf("a failed import changed the space")
		}
		r := ts.send(t, "GET", gitPath(space, "info"), admin, nil)
		if strings.Contains(string(r.Body), "s3cr3t") {
			t.Fatalf("Git info shows the credentials: %s", r.Body)
		}
		ts.wantNoStoredSecret(t, "s3cr3t-t0ken")
	})
}

func TestGitOperationsRunInEventOrder(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		ts.newContentFixture(t, space)
		repo := bareRepo(t)
		newer := "2026-05-02T10:00:00.000Z"
		older := "2026-05-01T10:00:00.000Z"
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "export"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "commitMessage": "Newer", "timestamp": newer})
		wantFields(t, ts.waitGit(t, space), map[string]any{"operation.state": "success", "operation.direction": "export"})

		// An import from an older event arrives late: it is skipped.
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "timestamp": older})
		wantFields(t, ts.waitGit(t, space), map[string]any{"operation.direction": "export"})

		// Forced, it runs.
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "timestamp": older, "force": true})
		wantFields(t, ts.waitGit(t, space), map[string]any{"operation.state": "success", "operation.direction": "import"})
	})
}

func TestGitInfoAndLegacyInstallation(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		ts.mustError(t, http.StatusNotFound, "GET", gitPath(space, "info"), admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", gitPath(space, "legacy-installation"), admin, nil)

		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "export"), admin,
			map[string]any{"url": bareRepo(t), "ref": "refs/heads/main", "commitMessage": "First",
				"gitInfo": map[string]any{"provider": "gitlab", "url": "https://gitlab.example/acme/docs/-/tree/main"}})
		info := ts.waitGit(t, space)
		wantFields(t, info, map[string]any{"installationProvider": "gitlab", "url": "https://gitlab.example/acme/docs/-/tree/main"})
		wantTimestamp(t, info, "updatedAt")

		ts.must(t, http.StatusResetContent, "DELETE", gitPath(space, "legacy-installation"), admin, nil)
		ts.mustError(t, http.StatusNotFound, "GET", gitPath(space, "info"), admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", gitPath(space, "legacy-installation"), admin, nil)
	})
}

func TestGitRequestsRefuseBadInput(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		base := map[string]any{"url": "https://git.example/acme/docs.git", "ref": "refs/heads/main"}
		with := func(kv ...any) map[string]any {
			m := map[string]any{}
			for k, v := range base {
				m[k] = v
			}
			return withPairs(m, kv...)
		}
		cases := []struct {
			name, op string
			body     map[string]any
			mention  string
		}{
			{"no url", "import", map[string]any{"ref": "refs/heads/main"}, "url"},
			{"no ref", "import", map[string]any{"url": "https://git.example/a.git"}, "ref"},
			{"short ref", "import", with("ref", "main"), "ref"},
			{"bad ref", "import", with("ref", "refs/heads/a..b"), "ref"},
			{"ftp url", "import", with("url", "ftp://git.example/a.git"), "url"},
			{"not a url", "import", with("url", "just words"), "url"},
			{"escaping directory", "import", with("repoProjectDirectory", "../etc"), "repoProjectDirectory"},
			{"bad provider", "import", with("gitInfo", map[string]any{"provider": "bitbucket"}), "provider"},
			{"bad timestamp", "import", with("timestamp", "yesterday"), "timestamp"},
			{"force not boolean", "import", with("force", "yes"), "force"},
			{"no commit message", "export", with(), "commitMessage"},
			{"empty commit message", "export", with("commitMessage", ""), "commitMessage"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				msg := ts.mustError(t, http.StatusBadRequest, "POST", gitPath(space, c.op), admin, c.body)
				wantContains(t, msg, c.mention)
			})
		}
		ts.mustError(t, http.StatusNotFound, "GET", gitPath(space, "info"), admin, nil)
	})
}

// wantNoStoredSecret fails when secret appears in clear in the queued jobs
// or the Git Sync records.
func (ts *testServer) wantNoStoredSecret(t *testing.T, secret string) {
	t.Helper()
	db, _ := ts.Store.(jobs.Database).JobDB()
	cast := "CAST(%s AS TEXT)"
	if ts.Engine == "postgres" {
		cast = "%s::text"
	}
	queries := []string{
		"SELECT " + fmt.Sprintf(cast, "args") + " || ' ' || COALESCE(" + fmt.Sprintf(cast, "errors") + ", '') FROM river_job",
		"SELECT url || ' ' || tree_url || ' ' || error FROM space_git_sync",
	}
	for _, q := range queries {
		rows, err := db.QueryContext(t.Context(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		n := 0
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			n++
			if strings.Contains(s, secret) {
				t.Errorf("stored in clear: %s", s)
			}
		}
		rows.Close()
		if n == 0 {
			t.Errorf("%s: no rows, so nothing was checked", q)
		}
	}
}

// pushRepo writes files as one commit on main of a new bare repository
// and returns its URL.
func pushRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	url := bareRepo(t)
	fs := gitremote.Files{}
	for p, b := range files {
		fs[p] = []byte(b)
	}
	rem := gitremote.New(gitremote.Options{AllowLocal: true})
	if _, _, err := rem.Push(t.Context(), url, "refs/heads/main", "", fs, "Docs"); err != nil {
		t.Fatalf("push: %v", err)
	}
	return url
}

func TestGitImportReadsGitBookRepositories(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		png := string(pngBytes(t, 4, 3))
		url := pushRepo(t, map[string]string{
			".gitbook.yaml": "root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n",
			"docs/SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n\n" +
				"## Get started <a href=\"#start\" id=\"start\"></a>\n\n* [Install](start/install.md)\n  * [On Linux](start/linux.md)\n" +
				"* [Source](https://example.com/src)\n",
			"docs/README.md":                "---\ndescription: The front page.\n---\n\n# Welcome\n\nSee [installing](start/install.md#steps).\n\n![Logo](.gitbook/assets/logo.png)\n",
			"docs/start/install.md":         "---\nicon: download\nhidden: true\n---\n\n# Install\n\n## Steps\n\n{% hint style=\"info\" %}\nRun it.\n{% endhint %}\n",
			"docs/start/linux.md":           "# On Linux\n\nUse a package.\n",
			"docs/orphan.md":                "# Orphan\n\nNot in the summary.\n",
			"docs/.gitbook/assets/logo.png": png,
			"other/ignored.md":              "# Outside the root\n",
		})
		space := ts.newSpace(t, "Docs")
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin,
			map[string]any{"url": url, "ref": "refs/heads/main"})
		info := ts.waitGit(t, space)
		wantFields(t, info, map[string]any{"operation.state": "success", "operation.stage": "finalize",
			"operation.progress.phase": "storing", "operation.progress.filesStored": float64(1), "operation.progress.filesTotal": float64(1)})
		if w, _ := json.Marshal(info["operation"]); !strings.Contains(string(w), "orphan.md: not in the summary") {
			t.Errorf("the unlisted page is not reported: %s", w)
		}
		tree, ids := ts.pageTree(t, space)
		want := "document welcome \"Welcome\"\n" +
			"group start \"Get started\"\n" +
			"  document start/install \"Install\"\n" +
			"    document start/install/linux \"On Linux\"\n" +
			"  link  \"Source\"\n"
		if tree != want {
			t.Errorf("tree:\n%s\nwant:\n%s", tree, want)
		}
		welcome := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content/page/"+ids["welcome"], admin, nil)
		wantFields(t, welcome, map[string]any{"description": "The front page."})
		doc, _ := json.Marshal(welcome["document"])
		for _, want := range []string{`"page":"` + ids["start/install"] + `"`, `"anchor":"steps"`, `"kind":"file"`} {
			if !strings.Contains(string(doc), want) {
				t.Errorf("welcome's document lacks %s: %s", want, doc)
			}
		}
		install := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content/page/"+ids["start/install"], admin, nil)
		wantFields(t, install, map[string]any{"icon": "download", "hidden": true})
		if md := ts.pageMarkdown(t, "/v1/spaces/"+space, ids["start/install"]); !strings.Contains(md, `{% hint style="info" %}`) {
			t.Errorf("install reads %q", md)
		}
	})
}
