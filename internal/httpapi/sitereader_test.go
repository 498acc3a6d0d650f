package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/reader"
	"quire/internal/service"
)

// visit requests an address of the site reader without following
// redirects; headers are set on the request as given.
func (ts *testServer) visit(t *testing.T, path string, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest("GET", ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: body}
}

// wantVisit requests a reader address and checks the status and that
// the body holds every one of the texts.
func (ts *testServer) wantVisit(t *testing.T, status int, path string, texts []string, headers ...string) response {
	t.Helper()
	r := ts.visit(t, path, headers...)
	if r.Status != status {
		t.Fatalf("GET %s: %d, want %d: %.300s", path, r.Status, status, r.Body)
	}
	for _, s := range texts {
		if !strings.Contains(string(r.Body), s) {
			t.Fatalf("GET %s: body lacks %q: %.2000s", path, s, r.Body)
		}
	}
	return r
}

// readerSite is a published site of two spaces: Guides (Welcome,
// Install) at the root, then API (Reference) in a section of its own.
type readerSite struct {
	id, guides, api, apiSection, installID string
}

// newReaderSite creates and publishes a site named docs.
func (ts *testServer) newReaderSite(t *testing.T) readerSite {
	t.Helper()
	admin := ts.token(cAdmin)
	s := readerSite{guides: ts.newSpace(t, "Guides"), api: ts.newSpace(t, "API")}
	cr := str(ts.newChangeRequest(t, s.guides, "Pages"), "id")
	ts.writeContent(t, s.guides, cr, insertFiles(inlineFile("diagram.png", pngBytes(t, 240, 90))))
	res := ts.writeContent(t, s.guides, cr, insertPage("Welcome", "Hello **readers**.\n\n![Diagram](.gitbook/assets/diagram.png)"),
		insertPage("Install", "Run the installer.\n\n## Requirements\n\nA computer."))
	s.installID = changedPage(t, res, 1)
	ts.mergeCR(t, s.guides, cr)
	cr = str(ts.newChangeRequest(t, s.api, "Pages"), "id")
	ts.writeContent(t, s.api, cr, insertPage("Reference", "Every endpoint."))
	ts.mergeCR(t, s.api, cr)
	s.id = ts.newSite(t, map[string]any{"title": "Docs", "spaces": []string{s.guides}})
	sec := ts.must(t, 201, "POST", ts.sitePath(s.id, "/sections"), admin, map[string]any{"spaceId": s.api, "title": "API"})
	s.apiSection = str(sec, "id")
	ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"basename": "docs"})
	ts.must(t, 200, "POST", ts.sitePath(s.id, "/publish"), admin, nil)
	return s
}

func TestSiteReaderPages(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		s := ts.newReaderSite(t)

		// The default section's first page at the root, the others by path.
		r := ts.wantVisit(t, 200, "/sites/docs/", []string{"Welcome", "<strong>readers</strong>", `href="/sites/docs/install"`, `href="/sites/docs/api/"`})
		if r.Header.Get("X-Robots-Tag") != "" || !strings.HasPrefix(r.Header.Get("Cache-Control"), "public") {
			t.Fatalf("public page headers: %v", r.Header)
		}
		ts.wantVisit(t, 200, "/sites/docs/install", []string{"Run the installer.", "Requirements", `href="/sites/docs/"`})
		// Files come from the site's own path, under its visibility.
		src := string(r.Body)
		at := strings.Index(src, "/sites/docs/~files/")
		if at < 0 {
			t.Fatalf("no file address in the page: %s", src[strings.Index(src, "<main"):])
		}
		file := src[at : at+strings.IndexByte(src[at:], '"')]
		if f := ts.wantVisit(t, 200, file, nil); f.Header.Get("Content-Type") != "image/png" || len(f.Body) == 0 {
			t.Fatalf("file: %v", f.Header)
		}
		ts.wantVisit(t, 404, "/sites/docs/~files/x/y/z", nil)
		ts.wantVisit(t, 200, "/sites/"+s.id+"/install", []string{"Run the installer."})
		ts.wantVisit(t, 200, "/sites/docs/api/", []string{"Every endpoint."})
		ts.wantVisit(t, 404, "/sites/docs/nope", []string{"Page not found"})
		ts.wantVisit(t, 404, "/sites/other/", nil)
		ts.wantVisit(t, 301, "/sites/docs", nil)

		// ETag and 304.
		etag := r.Header.Get("ETag")
		if etag == "" {
			t.Fatal("no ETag")
		}
		ts.wantVisit(t, 304, "/sites/docs/", nil, "If-None-Match", etag)
		ts.wantVisit(t, 200, "/sites/docs/install", nil, "If-None-Match", etag)
		// A change of customization is a new rendering.
		ts.must(t, 200, "PUT", ts.sitePath(s.id, "/customization"), admin, customization("Handbook"))
		r2 := ts.wantVisit(t, 200, "/sites/docs/", []string{"Handbook"}, "If-None-Match", etag)
		if r2.Header.Get("ETag") == etag {
			t.Fatal("the ETag did not change with the customization")
		}

		// Markdown, llms.txt, sitemap and robots of a public site.
		ts.wantVisit(t, 200, "/sites/docs/install.md", []string{"# Install", "## Requirements"})
		ts.wantVisit(t, 200, "/sites/docs/llms.txt", []string{"# Handbook", "[Install](/sites/docs/install.md)", "[Reference](/sites/docs/api/reference.md)"})
		ts.wantVisit(t, 200, "/sites/docs/sitemap.xml", []string{testBaseURL + "/sites/docs/install</loc>"})
		ts.wantVisit(t, 200, "/sites/docs/robots.txt", []string{"Allow: /", "Sitemap: " + testBaseURL + "/sites/docs/sitemap.xml"})
		sites, err := service.NewSiteReader(ts.Sites)
		if err != nil {
			t.Fatal(err)
		}
		listed := func() []reader.SiteEntry {
			l, err := SiteList{Sites: sites}.PublishedSites(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		if l := listed(); len(l) != 1 || l[0].URL != "/sites/docs/" {
			t.Fatalf("start page sites: %v", l)
		}

		// Search answers pages of the site spaces the visitor may see,
		// once the index has caught up with the merges.
		ts.awaitIndexed(t, s.guides)
		ts.awaitIndexed(t, s.api)
		r = ts.wantVisit(t, 200, "/sites/docs/~search?q=installer", nil)
		var hits []struct{ URL string }
		if err := json.Unmarshal(r.Body, &hits); err != nil || len(hits) != 1 || hits[0].URL != "/sites/docs/install" {
			t.Fatalf("search: %s", r.Body)
		}
		ts.wantVisit(t, 200, "/sites/docs/~search?q=installer", []string{`href="/sites/docs/install"`}, "Accept", "text/html")

		// A page moved by a merge answers at its old path with a redirect.
		cr := str(ts.newChangeRequest(t, s.guides, "Rename"), "id")
		ts.writeContent(t, s.guides, cr, updatePage(s.installID, "slug", "setup"))
		ts.mergeCR(t, s.guides, cr)
		r = ts.wantVisit(t, 301, "/sites/docs/install", nil)
		if r.Header.Get("Location") != "/sites/docs/setup" {
			t.Fatalf("moved page: %v", r.Header)
		}
		ts.wantVisit(t, 200, "/sites/docs/setup", []string{"Run the installer."})
		// Its Markdown address moves with it, still as Markdown.
		r = ts.wantVisit(t, 301, "/sites/docs/install.md", nil)
		if r.Header.Get("Location") != "/sites/docs/setup.md" {
			t.Fatalf("moved page's Markdown: %v", r.Header)
		}

		// Unlisted: readable, never indexed.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "unlisted"})
		r = ts.wantVisit(t, 200, "/sites/docs/", []string{`<meta name="robots" content="noindex">`})
		if r.Header.Get("X-Robots-Tag") != "noindex" {
			t.Fatalf("unlisted headers: %v", r.Header)
		}
		ts.wantVisit(t, 200, "/sites/docs/robots.txt", []string{"Disallow: /"})
		if l := listed(); len(l) != 0 {
			t.Fatalf("an unlisted site is listed: %v", l)
		}
		ts.wantVisit(t, 200, file, nil)
		if r := ts.visit(t, "/sites/docs/sitemap.xml"); strings.Contains(string(r.Body), "<loc>") {
			t.Fatalf("unlisted sitemap lists pages: %s", r.Body)
		}

		// Unpublished: nothing.
		ts.must(t, 200, "POST", ts.sitePath(s.id, "/unpublish"), admin, nil)
		ts.wantVisit(t, 404, "/sites/docs/", nil)
		ts.wantVisit(t, 404, "/sites/docs/setup.md", nil)
	})
}

func TestSiteReaderAccess(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		s := ts.newReaderSite(t)

		// Share links: only with a live key, in the path, the query or the
		// cookie either sets.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "share-link"})
		ts.wantVisit(t, 404, "/sites/docs/", nil)
		link := ts.must(t, 201, "POST", ts.sitePath(s.id, "/share-links"), admin, map[string]any{"name": "Readers"})
		pub := str(ts.must(t, 200, "GET", ts.sitePath(s.id, "/share-links"), admin, nil), "items.0.urls.published")
		key := strings.TrimSuffix(pub[strings.Index(pub, "/~share/")+len("/~share/"):], "/")
		r := ts.wantVisit(t, 200, "/sites/docs/~share/"+key+"/", []string{"Welcome", `href="/sites/docs/~share/` + key + `/install"`})
		if r.Header.Get("X-Robots-Tag") != "noindex" || !strings.HasPrefix(r.Header.Get("Cache-Control"), "private") {
			t.Fatalf("share-link headers: %v", r.Header)
		}
		ts.wantVisit(t, 200, "/sites/docs/~share/"+key+"/install", []string{"Run the installer."})
		ts.wantVisit(t, 200, "/sites/docs/install?share="+key, []string{"Run the installer."})
		ts.wantVisit(t, 200, "/sites/docs/install", []string{"Run the installer."}, "Cookie", "quire-site-share="+key)
		ts.wantVisit(t, 404, "/sites/docs/~share/wrong/", nil)
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/share-links/"+str(link, "id")), admin, map[string]any{"active": false})
		ts.wantVisit(t, 404, "/sites/docs/~share/"+key+"/", nil)
		ts.wantVisit(t, 404, "/sites/docs/install", nil, "Cookie", "quire-site-share="+key)
		ts.wantVisit(t, 404, "/sites/docs/~search?q=installer", nil, "Cookie", "quire-site-share="+key)

		// Visitor authentication: a token signed with the site's key.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "visitor-auth"})
		ts.wantVisit(t, 401, "/sites/docs/", []string{"Sign-in required"})
		token, err := ts.Sites.SignVisitorToken(context.Background(), ts.Org, s.id, map[string]any{"isBeta": true})
		if err != nil {
			t.Fatal(err)
		}
		r = ts.wantVisit(t, 200, "/sites/docs/?jwt_token="+token, []string{"Welcome"})
		if c := r.Header.Get("Set-Cookie"); !strings.Contains(c, "gitbook-visitor-token="+token) {
			t.Fatalf("no visitor cookie: %q", c)
		}
		ts.wantVisit(t, 200, "/sites/docs/install", nil, "Cookie", "gitbook-visitor-token="+token)
		forged := token[:strings.LastIndex(token, ".")+1] + "AAAA"
		ts.wantVisit(t, 401, "/sites/docs/install", nil, "Cookie", "gitbook-visitor-token="+forged)
		expired, err := ts.Sites.SignVisitorToken(context.Background(), ts.Org, s.id, map[string]any{"exp": 1})
		if err != nil {
			t.Fatal(err)
		}
		ts.wantVisit(t, 401, "/sites/docs/install", nil, "Cookie", "gitbook-visitor-token="+expired)
		ts.wantVisit(t, 401, "/sites/docs/robots.txt", nil)

		// Adaptive content: a section whose condition does not hold is not
		// shown and its pages are not found.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "public"})
		ts.must(t, 200, "PUT", ts.sitePath(s.id, "/adaptive-schema"), admin, map[string]any{"jsonSchema": visitorSchema()})
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/sections/"+s.apiSection), admin, map[string]any{"condition": `visitor.claims.unsigned.lang == "fr"`})
		r = ts.wantVisit(t, 200, "/sites/docs/", nil)
		if strings.Contains(string(r.Body), `href="/sites/docs/api/"`) {
			t.Fatal("a hidden section is shown")
		}
		ts.wantVisit(t, 404, "/sites/docs/api/", nil)
		fr := "gitbook-visitor-public=" + url.QueryEscape(`{"lang":"fr"}`)
		ts.wantVisit(t, 200, "/sites/docs/api/", []string{"Every endpoint."}, "Cookie", fr)
		ts.wantVisit(t, 200, "/sites/docs/", []string{`href="/sites/docs/api/"`}, "Cookie", fr)
		// Search leaves the hidden section out once the index has caught up
		// with the space, and answers it to visitors who may see it.
		ts.awaitIndexed(t, s.api)
		if r := ts.visit(t, "/sites/docs/~search?q=endpoint"); strings.Contains(string(r.Body), "reference") {
			t.Fatalf("search answers a hidden section: %s", r.Body)
		}
		ts.wantVisit(t, 200, "/sites/docs/~search?q=endpoint", []string{"/sites/docs/api/reference"}, "Cookie", fr)
		// Signed claims come from the visitor token.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/sections/"+s.apiSection), admin, map[string]any{"condition": "visitor.claims.isBeta"})
		ts.wantVisit(t, 404, "/sites/docs/api/", nil)
		ts.wantVisit(t, 200, "/sites/docs/api/?jwt_token="+token, []string{"Every endpoint."})
	})
}

func TestSpacePublishedURLLeadsToItsSite(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		s := ts.newReaderSite(t)
		sp := ts.must(t, 200, "PATCH", "/v1/spaces/"+s.guides, admin, map[string]any{"visibility": "public"})
		published := str(sp, "urls.published")
		if published != testBaseURL+"/docs/"+s.guides {
			t.Fatalf("urls.published = %q", published)
		}
		lead := func(path, location string) {
			t.Helper()
			r := ts.wantVisit(t, http.StatusFound, path, nil)
			if got := r.Header.Get("Location"); got != location {
				t.Errorf("GET %s: Location %q, want %q", path, got, location)
			}
		}
		// The space's address, and a page path below it, lead to the site
		// space showing it; each space to its own.
		lead(strings.TrimPrefix(published, testBaseURL), "/sites/docs/")
		lead("/docs/"+s.guides+"/install", "/sites/docs/install")
		lead("/docs/"+s.api, "/sites/docs/api/")
		lead("/docs/"+s.api+"/reference", "/sites/docs/api/reference")
		// A space no site shows, or a site that does not show it to every
		// visitor, leads nowhere.
		ts.wantVisit(t, http.StatusNotFound, "/docs/"+ts.newSpace(t, "Alone"), nil)
		ts.wantVisit(t, http.StatusNotFound, "/docs/nosuchspace", nil)
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "share-link"})
		ts.wantVisit(t, http.StatusNotFound, "/docs/"+s.guides, nil)
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "unlisted"})
		lead("/docs/"+s.guides, "/sites/docs/")
		ts.must(t, 200, "POST", ts.sitePath(s.id, "/unpublish"), admin, nil)
		ts.wantVisit(t, http.StatusNotFound, "/docs/"+s.guides, nil)
	})
}
