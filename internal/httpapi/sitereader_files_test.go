package httpapi

import (
	"regexp"
	"testing"
)

// scriptedSVG is a small SVG picture with a script that must never run.
const scriptedSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">` +
	`<style>rect{fill:#346ddb}</style><rect width="120" height="40"/><script>alert(1)</script></svg>`

// fileURL finds the addresses of a site's files in a page, in order.
var fileURL = regexp.MustCompile(`/sites/docs/~files/[^"]+`)

// Images are served as images (an SVG too, sandboxed); other markup is
// served as bytes to download.
func TestSiteReaderFileTypes(t *testing.T) {
	t.Parallel()
	ts := newConfiguredServer(t, engineSQLite, nil)
	s := ts.newReaderSite(t)
	cr := str(ts.newChangeRequest(t, s.guides, "Images"), "id")
	ts.writeContent(t, s.guides, cr, insertFiles(
		inlineFile("logo.svg", []byte(scriptedSVG)),
		inlineFile("photo.JPG", []byte("\xff\xd8\xff\xe0 not really a photo")),
		inlineFile("anim.webp", []byte("RIFF....WEBPVP8 ")),
		inlineFile("page.html", []byte("<html><script>alert(1)</script></html>")),
		inlineFile("mark.svg", []byte(scriptedSVG), "contentType", "text/plain"),
	))
	ts.writeContent(t, s.guides, cr, insertPage("Images",
		"![](.gitbook/assets/logo.svg)\n\n![](.gitbook/assets/photo.JPG)\n\n![](.gitbook/assets/anim.webp)\n\n"+
			"![](.gitbook/assets/mark.svg)\n\n{% file src=\".gitbook/assets/page.html\" %}\n"))
	ts.mergeCR(t, s.guides, cr)
	page := ts.wantVisit(t, 200, "/sites/docs/images", nil)
	urls := fileURL.FindAllString(string(page.Body), -1)
	want := []struct{ ct, csp string }{
		{"image/svg+xml", "default-src 'none'; style-src 'unsafe-inline'; sandbox"},
		{"image/jpeg", "default-src 'none'; sandbox"},
		{"image/webp", "default-src 'none'; sandbox"},
		{"image/svg+xml", "default-src 'none'; style-src 'unsafe-inline'; sandbox"},
		{"application/octet-stream", "default-src 'none'; sandbox"},
	}
	if len(urls) != len(want) {
		t.Fatalf("file addresses %q, want %d", urls, len(want))
	}
	for i, u := range urls {
		r := ts.wantVisit(t, 200, u, nil)
		if ct := r.Header.Get("Content-Type"); ct != want[i].ct {
			t.Errorf("%s: Content-Type %q, want %q", u, ct, want[i].ct)
		}
		if csp := r.Header.Get("Content-Security-Policy"); csp != want[i].csp {
			t.Errorf("%s: Content-Security-Policy %q, want %q", u, csp, want[i].csp)
		}
	}
}
