package testutil

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// BrowserPage drives one tab of a headless Chromium for a test, with the
// steps a person takes: open an address, find controls by their role and
// accessible name, read the main heading, take a screenshot.
type BrowserPage struct {
	T   testing.TB
	Ctx context.Context
	// Dir is where screenshots go.
	Dir string
}

// NewBrowserPage starts the browser (see Browser).
func NewBrowserPage(t testing.TB) *BrowserPage {
	t.Helper()
	ctx, dir := Browser(t)
	return &BrowserPage{T: t, Ctx: ctx, Dir: dir}
}

// Do runs steps, failing the test on an error.
func (b *BrowserPage) Do(steps ...chromedp.Action[chromedp.Void]) {
	b.T.Helper()
	if err := chromedp.Do(b.Ctx, steps...); err != nil {
		b.T.Fatalf("%s: %v", b.location(), err)
	}
}

// location is the page's address, for failure messages.
func (b *BrowserPage) location() string {
	v, _ := chromedp.Run(b.Ctx, chromedp.Evaluate[string]("location.href"))
	return v
}

// JS evaluates a JavaScript expression giving a string.
func (b *BrowserPage) JS(expr string) string {
	b.T.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.T.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TryJS evaluates a JavaScript expression giving a string, returning
// the error instead of failing: loops that wait through a navigation
// meet "Inspected target navigated or closed" and look again.
func (b *BrowserPage) TryJS(expr string) (string, error) {
	return chromedp.Run(b.Ctx, chromedp.Evaluate[string](expr))
}

// H1 waits for the page's main heading and checks it.
func (b *BrowserPage) H1(want string) {
	b.T.Helper()
	b.Do(chromedp.WaitVisible(chromedp.CSS("main h1")))
	if got := strings.TrimSpace(b.JS(`document.querySelector("main h1").textContent`)); got != want {
		b.T.Fatalf("page heading %q, want %q (%s)", got, want, b.location())
	}
}

// Open navigates to url, checks the document's status and returns its
// response.
func (b *BrowserPage) Open(url string, status int) *network.Response {
	b.T.Helper()
	res, err := chromedp.Run(b.Ctx, chromedp.NavigateResponse(url))
	if err != nil {
		b.T.Fatalf("%s: %v", url, err)
	}
	if int(res.Status) != status {
		b.T.Fatalf("%s: %d, want %d", url, res.Status, status)
	}
	return res
}

// Shoot writes a full-page screenshot to the screenshot directory.
func (b *BrowserPage) Shoot(name string) {
	b.T.Helper()
	png, err := chromedp.Run(b.Ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.T.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.Dir, name), png, 0o644); err != nil {
		b.T.Fatal(err)
	}
	b.T.Logf("screenshot: %s", filepath.Join(b.Dir, name))
}

// Viewport sets the window's width and height in CSS pixels, and whether
// it is a phone's.
func (b *BrowserPage) Viewport(width, height int64, mobile bool) {
	b.T.Helper()
	b.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: width, Height: height, DeviceScaleFactor: 1, Mobile: mobile})
		return err
	}))
}

// Theme sets the colour scheme the page is drawn in ("light" or "dark"),
// as the theme toggle would, and opens the page again: a navigation the
// browser waits for, where a reload from a script would race the next
// step.
func (b *BrowserPage) Theme(theme string) {
	b.T.Helper()
	b.JS(`localStorage.setItem("quire-theme", ` + "`" + theme + "`" + `); ""`)
	if _, err := chromedp.Run(b.Ctx, chromedp.NavigateResponse(b.location())); err != nil {
		b.T.Fatalf("reopening the page: %v", err)
	}
	b.Do(chromedp.WaitReady(chromedp.CSS("body")))
}

// ShootViews writes four screenshots of the page, at desktop and phone
// widths in the light and the dark theme: name-desktop-light.png,
// name-desktop-dark.png, name-phone-dark.png and name-phone-light.png.
// Each change of theme opens the page again; every screenshot waits for
// the document in its theme, loaded, with an element matching the CSS
// selector ready drawn. The page is left at desktop width in the light
// theme.
func (b *BrowserPage) ShootViews(name, ready string) {
	b.T.Helper()
	sel, _ := json.Marshal(ready)
	shoot := func(theme, view string) {
		want, _ := json.Marshal(theme)
		// A script's look, not chromedp's node queries: those can wait
		// forever after the viewport changed under a loaded page.
		b.WaitFor(`document.documentElement.getAttribute("data-theme") === ` + string(want) +
			` && (document.querySelector(` + string(sel) + `) || {getClientRects: () => []}).getClientRects().length > 0`)
		b.Shoot(name + "-" + view + "-" + theme + ".png")
	}
	b.Viewport(1280, 900, false)
	if b.JS(`document.documentElement.getAttribute("data-theme") || ""`) != "light" {
		b.Theme("light")
	}
	shoot("light", "desktop")
	b.Theme("dark")
	shoot("dark", "desktop")
	b.Viewport(390, 844, true)
	shoot("dark", "phone")
	b.Theme("light")
	shoot("light", "phone")
	b.Viewport(1280, 900, false)
}

// Forget makes the browser a new visitor: no cookies, nothing cached.
func (b *BrowserPage) Forget() {
	b.T.Helper()
	b.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.ClearBrowserCache, cdp.Empty{})
		return err
	}))
}

// SetCookie gives the browser a cookie for url.
func (b *BrowserPage) SetCookie(url, name, value string) {
	b.T.Helper()
	b.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		httpOnly := true
		_, err := cdp.Call(ctx, t, network.SetCookie, network.SetCookieParams{Name: name, Value: value, URL: url, HTTPOnly: &httpOnly})
		return err
	}))
}

// Cookie returns the value of a cookie the browser holds for url, HttpOnly
// ones included; "" when it holds none.
func (b *BrowserPage) Cookie(url, name string) string {
	b.T.Helper()
	var value string
	b.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
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

// Click clicks the first element of a role and accessible name, waiting
// for it to appear, as a person's click would (the element's own click).
func (b *BrowserPage) Click(role, name string) {
	b.T.Helper()
	b.onRole(role, name, `function(){this.scrollIntoView({block:"center"});this.click();return ""}`)
}

// Fill puts text into the first field of a role and accessible name,
// waiting for it to appear, and tells the page it changed.
func (b *BrowserPage) Fill(role, name, text string) {
	b.T.Helper()
	b.onRole(role, name, `function(v){this.focus();this.value=v;`+
		`this.dispatchEvent(new Event("input",{bubbles:true}));this.dispatchEvent(new Event("change",{bubbles:true}));return ""}`, text)
}

// WaitFor waits until the page is loaded and the JavaScript condition
// holds, failing the test after ten seconds. A page between documents is
// looked at again.
func (b *BrowserPage) WaitFor(cond string) {
	b.T.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && !!(`+cond+`)`))
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.T.Fatalf("waited in vain for %s at %s", cond, b.location())
}

// queryRole returns the elements of the page of a role and accessible
// name that assistive technology sees (those not ignored), in document
// order.
func queryRole(ctx context.Context, t *chromedp.Target, role, name string) ([]*accessibility.Node, error) {
	doc, err := cdp.Call(ctx, t, dom.GetDocument, dom.GetDocumentParams{})
	if err != nil {
		return nil, err
	}
	res, err := cdp.Call(ctx, t, accessibility.QueryAXTree,
		accessibility.QueryAXTreeParams{NodeID: doc.Root.NodeID, Role: role, AccessibleName: name})
	if err != nil {
		return nil, err
	}
	var out []*accessibility.Node
	for _, n := range res.Nodes {
		if !n.Ignored {
			out = append(out, n)
		}
	}
	return out, nil
}

// onRole runs a JavaScript function on the first element of a role and
// accessible name (found as assistive technology finds it), with args,
// retrying for ten seconds while the element is missing or the page is
// between documents, and returns its string result.
func (b *BrowserPage) onRole(role, name, fn string, args ...string) string {
	b.T.Helper()
	var (
		out  string
		last error
	)
	call := func(ctx context.Context, t *chromedp.Target) error {
		nodes, err := queryRole(ctx, t, role, name)
		if err != nil {
			return err
		}
		var id cdp.BackendNodeID
		for _, n := range nodes {
			if n.BackendDOMNodeID != 0 {
				id = n.BackendDOMNodeID
				break
			}
		}
		if id == 0 {
			return fmt.Errorf("no %s named %q", role, name)
		}
		obj, err := cdp.Call(ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: id})
		if err != nil {
			return err
		}
		var callArgs []*runtime.CallArgument
		for _, a := range args {
			v, _ := json.Marshal(a)
			callArgs = append(callArgs, &runtime.CallArgument{Value: v})
		}
		byValue := true
		r, err := cdp.Call(ctx, t, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: fn, ObjectID: obj.Object.ObjectID, Arguments: callArgs, ReturnByValue: &byValue})
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil {
			return fmt.Errorf("%s %q: %s", role, name, r.ExceptionDetails.Text)
		}
		if r.Result != nil && len(r.Result.Value) > 0 {
			_ = json.Unmarshal(r.Result.Value, &out)
		}
		return nil
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if last = chromedp.Do(b.Ctx, chromedp.Func(call)); last == nil {
			return out
		}
	}
	b.T.Fatalf("%s: %v", b.location(), last)
	return ""
}

// Has reports whether the page shows an element of a role and accessible
// name. A page between documents is looked at again.
func (b *BrowserPage) Has(role, name string) bool {
	b.T.Helper()
	var (
		found bool
		last  error
	)
	look := func(ctx context.Context, t *chromedp.Target) error {
		nodes, err := queryRole(ctx, t, role, name)
		found = len(nodes) > 0
		return err
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if last = chromedp.Do(b.Ctx, chromedp.Func(look)); last == nil {
			return found
		}
	}
	b.T.Fatalf("%s: %v", b.location(), last)
	return false
}

// ByRole is a query option finding elements as assistive technology
// does: by their computed role and accessible name.
func ByRole(role, name string) chromedp.QueryOption {
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
