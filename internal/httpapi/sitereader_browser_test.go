package httpapi

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSiteReaderBrowser walks a published site in Chromium: the sidebar,
// the previous-page link, section tabs and a group's menu, a section shown
// by a condition, search as you type and the theme toggle, with
// screenshots of three pages at desktop and phone widths (in
// $QUIRE_SCREENSHOT_DIR when set).
func TestSiteReaderBrowser(t *testing.T) {
	ts := newConfiguredServer(t, engineSQLite, nil)
	admin := ts.token(cAdmin)
	s := ts.newReaderSite(t)
	sdk := ts.newSpace(t, "SDK")
	cr := str(ts.newChangeRequest(t, sdk, "Pages"), "id")
	ts.writeContent(t, sdk, cr, insertPage("Clients", "Clients for every language."))
	ts.mergeCR(t, sdk, cr)
	sdkSection := str(ts.must(t, 201, "POST", ts.sitePath(s.id, "/sections"), admin, map[string]any{"spaceId": sdk, "title": "SDK"}), "id")
	ts.must(t, 201, "POST", ts.sitePath(s.id, "/section-groups"), admin,
		map[string]any{"title": "Reference", "sections": []string{s.apiSection, sdkSection}})
	ts.must(t, 200, "PUT", ts.sitePath(s.id, "/adaptive-schema"), admin, map[string]any{"jsonSchema": visitorSchema()})
	ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/sections/"+sdkSection), admin, map[string]any{"condition": `visitor.claims.unsigned.lang == "fr"`})
	c := customization("Quire Handbook")
	c["themes"] = map[string]any{"default": "light", "toggeable": true}
	ts.must(t, 200, "PUT", ts.sitePath(s.id, "/customization"), admin, c)
	if r := ts.visit(t, "/sites/docs/"); r.Status != http.StatusOK {
		t.Fatalf("site: %d", r.Status)
	}

	b := newReaderBrowser(t)
	do, js, h1, shoot := b.do, b.js, b.h1, b.shoot
	menu := `Array.prototype.map.call(document.querySelectorAll(".sections details.menu a"),function(a){return a.textContent}).join(",")`

	// Desktop: the first page, then the sidebar to Install.
	do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.URL+"/sites/docs/"))
	h1("Welcome")
	if got := js(menu); got != "API" {
		t.Errorf("the Reference menu holds %q, want API only", got)
	}
	shoot("site-welcome-desktop.png")
	do(chromedp.Click(chromedp.CSS(`#sidebar a[href="/sites/docs/install"]`)))
	h1("Install")
	shoot("site-install-desktop.png")

	// The previous-page link, then the group's menu leads to the API
	// section and the Guides tab back.
	do(chromedp.Click(chromedp.CSS(`main a[href="/sites/docs/"]`)))
	h1("Welcome")
	do(chromedp.Click(chromedp.CSS(".sections details.menu summary")),
		chromedp.Click(chromedp.CSS(`.sections details.menu a[href="/sites/docs/api/"]`)))
	h1("Reference")
	if got := js(`document.querySelector(".sections details.menu.active") ? "active" : ""`); got != "active" {
		t.Error("the Reference menu is not marked as the current tab")
	}
	shoot("site-reference-desktop.png")
	do(chromedp.Click(chromedp.CSS(`.sections > ul > li > a[href="/sites/docs/"]`)))
	h1("Welcome")
	if got := js(`document.querySelector('.sections a[aria-current="page"]').textContent`); got != "Guides" {
		t.Errorf("current tab %q, want Guides", got)
	}
	do(chromedp.Click(chromedp.CSS(".sections details.menu summary")),
		chromedp.Click(chromedp.CSS(`.sections details.menu a[href="/sites/docs/api/"]`)))
	h1("Reference")

	// A visitor whose unsigned claims meet the condition sees the SDK.
	do(chromedp.Evaluate[chromedp.Void](`document.cookie = "gitbook-visitor-public=" + encodeURIComponent(JSON.stringify({lang: "fr"})) + "; path=/sites/docs/"`),
		chromedp.Reload())
	h1("Reference")
	if got := js(menu); got != "API,SDK" {
		t.Errorf("with the claim the Reference menu holds %q", got)
	}
	do(chromedp.Click(chromedp.CSS(".sections details.menu summary")),
		chromedp.Click(chromedp.CSS(`.sections details.menu a[href="/sites/docs/sdk/"]`)))
	h1("Clients")

	// Search as you type leads to the page found.
	do(chromedp.Click(chromedp.CSS("#search-input")), chromedp.SendKeys(chromedp.CSS("#search-input"), "installer"),
		chromedp.WaitVisible(chromedp.CSS(`#search-results a[href="/sites/docs/install"]`)),
		chromedp.Click(chromedp.CSS(`#search-results a[href="/sites/docs/install"]`)))
	h1("Install")

	// The theme toggle switches to dark and is remembered.
	do(chromedp.Click(chromedp.CSS(".theme-toggle")))
	if got := js(`document.documentElement.getAttribute("data-theme")`); got != "dark" {
		t.Errorf("theme after the toggle: %q", got)
	}
	do(chromedp.Reload())
	h1("Install")
	if got := js(`document.documentElement.getAttribute("data-theme")`); got != "dark" {
		t.Errorf("theme after reload: %q", got)
	}
	do(chromedp.Click(chromedp.CSS(".theme-toggle")))

	// Phone width: the same three pages.
	do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	for _, p := range []struct{ path, title, shot string }{
		{"/sites/docs/", "Welcome", "site-welcome-phone.png"},
		{"/sites/docs/install", "Install", "site-install-phone.png"},
		{"/sites/docs/api/", "Reference", "site-reference-phone.png"},
	} {
		do(chromedp.Navigate(ts.URL + p.path))
		h1(p.title)
		if w := js(`String(document.documentElement.scrollWidth)`); w != "390" {
			t.Errorf("%s is %s px wide at phone width", p.path, w)
		}
		shoot(p.shot)
	}
}
