package httpapi

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"quire/internal/testutil"
)

// readerBrowser drives a headless Chromium over the site reader for one
// test.
type readerBrowser struct {
	t   *testing.T
	ctx context.Context
	// dir is where screenshots go.
	dir string
}

// newReaderBrowser starts the browser (see testutil.Browser).
func newReaderBrowser(t *testing.T) *readerBrowser {
	t.Helper()
	ctx, dir := testutil.Browser(t)
	return &readerBrowser{t: t, ctx: ctx, dir: dir}
}

// do runs steps, failing the test on an error.
func (b *readerBrowser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// js evaluates a JavaScript expression giving a string.
func (b *readerBrowser) js(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// h1 waits for the page's main heading and checks it.
func (b *readerBrowser) h1(want string) {
	b.t.Helper()
	b.do(chromedp.WaitVisible(chromedp.CSS("main h1")))
	if got := strings.TrimSpace(b.js(`document.querySelector("main h1").textContent`)); got != want {
		b.t.Fatalf("page %q, want %q (%s)", got, want, b.js("location.href"))
	}
}

// shoot writes a full-page screenshot to the screenshot directory.
func (b *readerBrowser) shoot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.dir, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", filepath.Join(b.dir, name))
}

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
func (b *readerBrowser) forget() {
	b.t.Helper()
	b.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.ClearBrowserCache, cdp.Empty{})
		return err
	}))
}

// cookie returns the value of a cookie the browser holds for url, HttpOnly
// ones included; "" when it holds none.
func (b *readerBrowser) cookie(url, name string) string {
	b.t.Helper()
	var value string
	b.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, network.GetCookies, network.GetCookiesParams{URLs: []string{url}})
		for _, c := range res.Cookies {
			if c.Name == name {
				value = c.Value
			}
		}
		return err
	}))
	return value
}

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

// byRole is a query option finding elements as assistive technology
// does: by their computed role and accessible name.
func byRole(role, name string) chromedp.QueryOption {
	return chromedp.ByFunc(func(ctx context.Context, t *chromedp.Target, root *chromedp.Node) ([]cdp.NodeID, error) {
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree,
			accessibility.QueryAXTreeParams{NodeID: root.NodeID, Role: role, AccessibleName: name})
		if err != nil {
			return nil, err
		}
		var ids []cdp.BackendNodeID
		for _, n := range res.Nodes {
			if !n.Ignored && n.BackendDOMNodeID != 0 {
				ids = append(ids, n.BackendDOMNodeID)
			}
		}
		if len(ids) == 0 {
			return nil, nil
		}
		pushed, err := cdp.Call(ctx, t, dom.PushNodesByBackendIDsToFrontend, dom.PushNodesByBackendIDsToFrontendParams{BackendNodeIDs: ids})
		return pushed.NodeIDs, err
	})
}

// probe marks the first element of a role and accessible name with a
// data-probe attribute of the given value, for scripts to measure it.
func (b *readerBrowser) probe(role, name, value string) {
	b.t.Helper()
	b.do(chromedp.SetAttributeValue(role+" "+name, "data-probe", value, byRole(role, name)))
}
