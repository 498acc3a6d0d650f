package httpapi

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSiteReaderVisibilityBrowser walks a published site in Chromium under
// each visibility, as a visitor it admits and as one it refuses: public
// and unlisted sites open to anyone (unlisted ones never indexed), an
// unpublished site is a 404 page, a share-link site opens with a live key
// (kept in a cookie) and closes at the next request once the link is
// turned off, and a visitor-auth site opens to a token signed with the key
// the publishing auth API gives, until that key is regenerated.
// Screenshots of the refusal pages go with the others.
func TestSiteReaderVisibilityBrowser(t *testing.T) {
	ts := newConfiguredServer(t, engineSQLite, nil)
	admin := ts.token(cAdmin)
	s := ts.newReaderSite(t)
	site := ts.URL + "/sites/docs/"
	visibility := func(v string) {
		t.Helper()
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": v})
	}
	b := newReaderBrowser(t)
	b.do(chromedp.EmulateViewport(1280, 900))
	// anyone checks that a new visitor reads a page, and whether search
	// engines are told not to index it (robots "noindex", header and meta).
	anyone := func(path, heading, robots string) {
		t.Helper()
		b.forget()
		res := b.open(site+path, 200, heading)
		if got := header(res, "X-Robots-Tag"); got != robots {
			t.Errorf("%s: X-Robots-Tag %q, want %q", path, got, robots)
		}
		if got := b.js(`(document.querySelector('meta[name="robots"]') || {}).content || ""`); got != robots {
			t.Errorf("%s: robots meta %q, want %q", path, got, robots)
		}
	}

	// Public: anyone reads it, and search engines may index it.
	anyone("", "Welcome", "")
	b.do(chromedp.Click(chromedp.CSS(`#sidebar a[href="/sites/docs/install"]`)))
	b.h1("Install")

	// Unlisted: anyone reads it, never indexed.
	visibility("unlisted")
	anyone("install", "Install", "noindex")
	b.do(chromedp.Click(chromedp.CSS(`#sidebar a[href="/sites/docs/"]`)))
	b.h1("Welcome")

	// Unpublished: a 404 page for everyone.
	ts.must(t, 200, "POST", ts.sitePath(s.id, "/unpublish"), admin, nil)
	b.forget()
	b.open(site, 404, "Page not found")
	b.shoot("site-unpublished-desktop.png")
	ts.must(t, 200, "POST", ts.sitePath(s.id, "/publish"), admin, nil)

	// Share link: refused without a live key; the key in the address is
	// kept in a cookie, so the next page needs no query; turning the link
	// off closes the site at the next request.
	visibility("share-link")
	b.forget()
	b.open(site, 404, "Page not found")
	b.open(site+"?share=wrong", 404, "Page not found")
	link := ts.must(t, 201, "POST", ts.sitePath(s.id, "/share-links"), admin, map[string]any{"name": "Readers"})
	pub := str(ts.must(t, 200, "GET", ts.sitePath(s.id, "/share-links"), admin, nil), "items.0.urls.published")
	key := strings.TrimSuffix(pub[strings.Index(pub, "/~share/")+len("/~share/"):], "/")
	res := b.open(site+"install?share="+key, 200, "Install")
	if got := header(res, "X-Robots-Tag"); got != "noindex" {
		t.Errorf("share-link page: X-Robots-Tag %q", got)
	}
	if got := b.cookie(site, "quire-site-share"); got != key {
		t.Errorf("share cookie %q, want the key", got)
	}
	b.open(site, 200, "Welcome")
	b.do(chromedp.Click(chromedp.CSS(`#sidebar a[href="/sites/docs/install"]`)))
	b.h1("Install")
	ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/share-links/"+str(link, "id")), admin, map[string]any{"active": false})
	b.open("", 404, "Page not found")
	b.open(site+"?share="+key, 404, "Page not found")

	// Visitor authentication: refused without a token or with one signed
	// by another key; a token signed with the key read from the API opens
	// it and is kept in a cookie; after a regeneration that token is
	// refused at the next request, and one signed with the new key opens.
	visibility("visitor-auth")
	b.forget()
	b.open(site, 401, "Sign-in required")
	b.shoot("site-sign-in-desktop.png")
	claims := map[string]any{"sub": "reader@example.com"}
	b.open(site+"?jwt_token="+visitorToken(t, "not the site's key", claims), 401, "Sign-in required")
	privateKey := str(ts.publishingAuth(t, s.id), "privateKey")
	old := visitorToken(t, privateKey, claims)
	b.open(site+"?jwt_token="+old, 200, "Welcome")
	if got := b.cookie(site, "gitbook-visitor-token"); got != old {
		t.Errorf("visitor cookie %q, want the token", got)
	}
	b.open(site+"install", 200, "Install")
	b.do(chromedp.Click(chromedp.CSS(`.sections a[href="/sites/docs/api/"]`)))
	b.h1("Reference")
	next := str(ts.must(t, 200, "POST", ts.sitePath(s.id, "/publishing/auth/regenerate"), admin, nil), "privateKey")
	b.open("", 401, "Sign-in required")
	b.open(site+"install?jwt_token="+old, 401, "Sign-in required")
	b.open(site+"install?jwt_token="+visitorToken(t, next, claims), 200, "Install")
	b.open(site, 200, "Welcome")
}
