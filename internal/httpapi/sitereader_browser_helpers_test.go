package httpapi

import (
	"context"
	"net/http"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"quire/internal/testutil"
)

// readerBrowser drives a headless Chromium over the site reader for one
// test: the shared browser page, with the names these tests use.
type readerBrowser struct {
	*testutil.BrowserPage
	t   *testing.T
	ctx context.Context
	// dir is where screenshots go.
	dir string
}

// newReaderBrowser starts the browser (see testutil.Browser).
func newReaderBrowser(t *testing.T) *readerBrowser {
	t.Helper()
	p := testutil.NewBrowserPage(t)
	return &readerBrowser{BrowserPage: p, t: t, ctx: p.Ctx, dir: p.Dir}
}

// do runs steps, failing the test on an error.
func (b *readerBrowser) do(steps ...chromedp.Action[chromedp.Void]) { b.t.Helper(); b.Do(steps...) }

// js evaluates a JavaScript expression giving a string.
func (b *readerBrowser) js(expr string) string { b.t.Helper(); return b.JS(expr) }

// h1 waits for the page's main heading and checks it.
func (b *readerBrowser) h1(want string) { b.t.Helper(); b.H1(want) }

// shoot writes a full-page screenshot to the screenshot directory.
func (b *readerBrowser) shoot(name string) { b.t.Helper(); b.Shoot(name) }

// open navigates to url (to the page's own address again when url is
// ""), checks the document's status and main heading, and returns its
// response.
func (b *readerBrowser) open(url string, status int, heading string) *network.Response {
	b.t.Helper()
	if url == "" {
		url = b.js("location.href")
	}
	res, err := chromedp.Run(b.ctx, chromedp.NavigateResponse(url))
	if err != nil {
		b.t.Fatalf("%s: %v", url, err)
	}
	if int(res.Status) != status {
		b.t.Fatalf("%s: %d, want %d", url, res.Status, status)
	}
	b.h1(heading)
	return res
}

// forget makes the browser a new visitor: no cookies, nothing cached.
func (b *readerBrowser) forget() { b.t.Helper(); b.Forget() }

// cookie returns the value of a cookie the browser holds for url, HttpOnly
// ones included; "" when it holds none.
func (b *readerBrowser) cookie(url, name string) string { b.t.Helper(); return b.Cookie(url, name) }

// header returns a response header, whatever the case of its name.
func header(res *network.Response, name string) string {
	for k, v := range res.Headers {
		if http.CanonicalHeaderKey(k) == http.CanonicalHeaderKey(name) {
			s, _ := v.(string)
			return s
		}
	}
	return ""
}

// byRole finds elements by their computed role and accessible name.
func byRole(role, name string) chromedp.QueryOption { return testutil.ByRole(role, name) }

// probe marks the first element of a role and accessible name with a
// data-probe attribute of the given value, for scripts to measure it.
func (b *readerBrowser) probe(role, name, value string) {
	b.t.Helper()
	b.do(chromedp.SetAttributeValue(role+" "+name, "data-probe", value, byRole(role, name)))
}
