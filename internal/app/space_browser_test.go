package app_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"quire/internal/testutil"
)

// TestSpaceBrowser reads a space in a real browser: the tree's toggle
// opens a branch, loading its pages, a nested page shows its outline, an in-page link leads
// to another page, an old revision's page opens from the revisions list,
// and a result typed into the search box leads to its page. Screenshots
// of each view at desktop and phone widths, light and dark.
func TestSpaceBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newSpaceFixture(t, h)
	h.awaitIndexed(t, f.Space.ID)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	sp := h.URL + "/app/s/" + f.Space.ID

	b.Viewport(1280, 900, false)
	b.Open(sp, http.StatusOK)
	b.H1("Welcome")
	if b.Has("link", "Linux") {
		t.Errorf("the closed branch shows its pages")
	}
	// The branch's pages are not drawn with the page: the toggle loads
	// them.
	b.Click("button", "Pages under Install")
	if b.JS(`document.querySelector('[aria-label="Pages under Install"]').getAttribute("aria-expanded")`) != "true" {
		t.Fatalf("the toggle did not open the branch")
	}
	b.WaitFor(`Array.from(document.querySelectorAll("#sidebar a")).some(function(a){return a.textContent.trim()==="Linux"})`)
	follow(t, b, "Linux", "Linux")
	follow(t, b, "Install", "Install")
	if !b.Has("link", "Requirements") || !b.Has("link", "Steps") {
		t.Errorf("the page's outline is missing")
	}

	follow(t, b, "Welcome", "Welcome")
	follow(t, b, "install guide", "Install")
	if !strings.HasSuffix(b.JS("location.pathname"), "/guides/install") {
		t.Errorf("the in-page link led to %s", b.JS("location.pathname"))
	}

	follow(t, b, "Revisions", "Revisions")
	// Revisions made within a minute share their names: open the first
	// merge's by its address.
	b.JS(`document.querySelector('main a[href$="/~/revisions/` + f.OldRevision + `"]').click(); ""`)
	waitPath(t, b, "/~/revisions/"+f.OldRevision)
	b.H1("Welcome")
	if !b.Has("link", "Go to the current content") {
		t.Errorf("an old revision is not marked as such")
	}
	follow(t, b, "Install", "Install")
	if p := b.JS("location.pathname"); !strings.Contains(p, "/~/revisions/"+f.OldRevision+"/guides/install") {
		t.Errorf("the old revision's tree led to %s", p)
	}

	b.JS(`(function(){var i=document.querySelector('[role=search] input[type=search]');i.focus();i.value="zebra";i.dispatchEvent(new Event("input",{bubbles:true}));return ""})()`)
	b.Do(chromedp.WaitVisible("search results", testutil.ByRole("listbox", "Search results")))
	b.JS(`document.querySelector('[aria-label="Search results"] [role=option] a').click(); ""`)
	waitPath(t, b, "/guides/install")
	b.H1("Install")

	// Screenshots last: the phone width's reloads leave the page
	// unfit for clicking.
	for _, v := range []struct{ path, h1, name string }{
		{"", "Welcome", "app-space"}, {"/guides/install", "Install", "app-page"},
		{"/~/revisions", "Revisions", "app-revisions"}, {"/~/search?q=zebrafish", "Search Handbook", "app-search"},
	} {
		b.Open(sp+v.path, http.StatusOK)
		b.H1(v.h1)
		b.ShootViews(v.name, "main h1")
	}
}

// follow clicks the first shown link named name (its text) and waits for
// the page whose heading is h1.
func follow(t *testing.T, b *testutil.BrowserPage, name, h1 string) {
	t.Helper()
	q, _ := json.Marshal(name)
	if b.JS(`(function(){var a=Array.from(document.querySelectorAll("a")).find(function(a){return a.textContent.trim()===`+string(q)+` && a.offsetParent!==null});if(!a)return "no";a.click();return "ok"})()`) != "ok" {
		t.Fatalf("no link %q on %s", name, b.JS("location.pathname"))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := b.TryJS(`document.readyState === "complete" ? ((document.querySelector("main h1")||{}).textContent||"") : ""`)
		if err == nil && got == h1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("following %q: no page %q (at %s)", name, h1, b.JS("location.pathname"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPath waits until the browser's address ends with suffix.
func waitPath(t *testing.T, b *testutil.BrowserPage, suffix string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if p, err := b.TryJS("location.pathname"); err == nil && strings.HasSuffix(p, suffix) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser is at %s, not at …%s", b.JS("location.pathname"), suffix)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
