package httpapi

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// importServer serves a Markdown page, an HTML page and a zip of pages on
// 127.0.0.1.
func importServer(t *testing.T) *httptest.Server {
	t.Helper()
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, body := range map[string]string{
		"README.md":          "# Handbook\n\nWelcome to the handbook.",
		"people/README.md":   "# People\n\nWho we are.",
		"people/hiring.md":   "# Hiring\n\nHow we hire.",
		"tools/editors.html": "<html><head><title>Editors</title></head><body><h1>Editors</h1><p>Use any <b>editor</b>.</p></body></html>",
	} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/notes.md", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		w.Write([]byte("# Release notes\n\nVersion **2** is out.\n\n- faster\n- smaller\n"))
	})
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><title>About</title></head><body><h1>About</h1><p>We write <i>docs</i>.</p></body></html>"))
	})
	mux.HandleFunc("/site.zip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Write(zb.Bytes())
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return hs
}

func TestImportContentIntoSpace(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		hs := importServer(t)
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		ts.newContentFixture(t, space)
		before, _ := ts.pageTree(t, space)

		r := ts.send(t, "POST", "/v1/spaces/"+space+"/content/import", admin,
			map[string]any{"url": hs.URL + "/notes.md", "source": "markdown"})
		if r.Status != http.StatusCreated {
			t.Fatalf("import: %d %s", r.Status, r.Body)
		}
		res := r.obj(t)
		rev := str(res, "revision")
		if rev == "" || ts.spaceRevision(t, space) != rev {
			t.Fatalf("import answered revision %q; the space is on %s", rev, ts.spaceRevision(t, space))
		}
		if loc := r.Header.Get("Location"); loc != testBaseURL+"/v1/spaces/"+space+"/revisions/"+rev {
			t.Fatalf("Location %q", loc)
		}
		wantFields(t, res, map[string]any{"importedResources": 1.0, "totalResources": 1.0})
		after, ids := ts.pageTree(t, space)
		if !strings.HasPrefix(after, before) {
			t.Fatalf("import changed the pages that were there:\n%s\nwas:\n%s", after, before)
		}
		var notes string
		for p, id := range ids {
			if strings.Contains(p, "release-notes") {
				notes = id
			}
		}
		if notes == "" {
			t.Fatalf("no imported page in:\n%s", after)
		}
		if got := ts.pageMarkdown(t, "/v1/spaces/"+space, notes); !strings.Contains(got, "Version **2** is out.") {
			t.Fatalf("imported page reads %q", got)
		}

		// The same import twice keeps both, under distinct slugs.
		ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+space+"/content/import", admin,
			map[string]any{"url": hs.URL + "/notes.md", "source": "markdown"})
		_, again := ts.pageTree(t, space)
		if len(again) != len(ids)+1 {
			t.Fatalf("second import: %d pages, want %d", len(again), len(ids)+1)
		}
	})
}

func TestImportContentSources(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		hs := importServer(t)
		admin := ts.token(cAdmin)

		space := ts.newSpace(t, "Handbook")
		res := ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+space+"/content/import", admin,
			map[string]any{"url": hs.URL + "/site.zip", "source": "zip"})
		if res["importedResources"].(float64) < 4 {
			t.Fatalf("zip import: %v", res)
		}
		tree, _ := ts.pageTree(t, space)
		for _, want := range []string{`"People"`, `"Hiring"`, `"Editors"`} {
			if !strings.Contains(tree, want) {
				t.Errorf("zip import lacks %s:\n%s", want, tree)
			}
		}

		html := ts.newSpace(t, "About")
		ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+html+"/content/import", admin,
			map[string]any{"url": hs.URL + "/page.html", "source": "html"})
		tree, _ = ts.pageTree(t, html)
		if !strings.Contains(tree, `"About"`) {
			t.Fatalf("html import:\n%s", tree)
		}
	})
}

func TestImportContentIntoChangeRequest(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		hs := importServer(t)
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		main := ts.spaceRevision(t, space)
		cr := str(ts.newChangeRequest(t, space, "Import"), "id")
		res := ts.must(t, http.StatusCreated, "POST", crPath(space, cr, "/content/import"), admin,
			map[string]any{"url": hs.URL + "/notes.md", "source": "markdown"})
		if got := ts.crRevision(t, space, cr); got != str(res, "revision") {
			t.Fatalf("answered revision %s, change request on %s", str(res, "revision"), got)
		}
		if ts.spaceRevision(t, space) != main {
			t.Fatalf("an import into a change request moved the space")
		}
	})
}

func TestImportContentRefusesBadInput(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		hs := importServer(t)
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Docs")
		rev := ts.spaceRevision(t, space)
		cases := []struct {
			name    string
			body    map[string]any
			mention string
		}{
			{"unsupported source", map[string]any{"url": hs.URL + "/notes.md", "source": "notion"}, "source"},
			{"unknown source", map[string]any{"url": hs.URL + "/notes.md", "source": "wiki"}, "source"},
			{"no source", map[string]any{"url": hs.URL + "/notes.md"}, "source"},
			{"no url", map[string]any{"source": "markdown"}, "url"},
			{"not a url", map[string]any{"url": "notes", "source": "markdown"}, "url"},
			{"missing file", map[string]any{"url": hs.URL + "/missing.md", "source": "markdown"}, "url"},
			{"not a zip", map[string]any{"url": hs.URL + "/notes.md", "source": "zip"}, "url"},
		}
		for _, c := range cases {
			msg := ts.mustError(t, http.StatusBadRequest, "POST", "/v1/spaces/"+space+"/content/import", admin, c.body)
			wantContains(t, msg, c.mention)
		}
		if ts.spaceRevision(t, space) != rev {
			t.Fatalf("a refused import changed the space")
		}
	})
}
