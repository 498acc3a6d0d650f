package app_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestDiffBrowser opens a change request's diff and a comparison of two
// revisions in a real browser, switches the view with the keyboard, and
// checks through the accessibility tree that an added, a removed and a
// changed block are announced as such. Screenshots of the three views at
// desktop and phone widths, light and dark.
func TestDiffBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newDiffFixture(t, h)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	diff := h.URL + "/app/s/" + f.spaceID + "/~/changes/" + strconv.Itoa(f.number) + "/diff"

	b.Viewport(1280, 900, false)
	b.Open(diff+"?view=split", http.StatusOK)
	b.H1("Changes of #" + strconv.Itoa(f.number) + " Rework the guide")
	announced := func(view string) {
		t.Helper()
		for _, name := range []string{"Added block", "Removed block", "Changed block"} {
			if !b.Has("group", name) {
				t.Errorf("%s view: no block announced as %q", view, name)
			}
		}
	}
	announced("split")
	if !b.Has("link", "Guide") || !b.Has("navigation", "Diff view") {
		t.Errorf("the changed pages or the view tabs are missing")
	}

	// Keyboard: focus the Inline tab and press Enter.
	key := func(name, want string) {
		t.Helper()
		b.JS(`document.querySelector('.diff-views a[href*="view=` + name + `"]').focus(); ""`)
		b.Do(chromedp.KeyEvent(kb.Enter))
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(b.JS(`location.search`), "view="+name) || b.JS(`document.readyState`) != "complete" ||
			b.JS(`document.querySelector(".diff-views [aria-current]") ? document.querySelector(".diff-views [aria-current]").textContent : ""`) != want {
			if time.Now().After(deadline) {
				t.Fatalf("Enter on the %s tab led to %s", name, b.JS("location.href"))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	key("inline", "Inline")
	announced("inline")
	key("markdown", "Markdown")
	if !b.Has("table", "Markdown of Guide, line by line") {
		t.Errorf("the Markdown view has no table of lines")
	}
	if got := b.JS(`String(document.querySelectorAll("tr.diff-line-added").length > 0 && document.querySelectorAll("tr.diff-line-removed").length > 0)`); got != "true" {
		t.Errorf("the Markdown view marks no added and removed lines")
	}

	// The view is remembered: the comparison opens in Markdown; the
	// keyboard goes back to side by side.
	b.Open(h.URL+"/app/s/"+f.spaceID+"/~/compare?from="+f.base+"&to="+f.head, http.StatusOK)
	b.H1("Compare revisions")
	if !b.Has("combobox", "From") || !b.Has("combobox", "To") {
		t.Errorf("the compare form lacks its selects")
	}
	if b.JS(`document.querySelector(".diff-views [aria-current]").textContent`) != "Markdown" {
		t.Errorf("the comparison did not open in the remembered view")
	}
	key("split", "Side by side")
	announced("compare")
	b.Open(diff+"?view=split", http.StatusOK)
	b.ShootViews("diff-split", "main h1")
}

// TestDiffBrowserViews takes the screenshots of the inline and Markdown
// views, in a browser session of their own.
func TestDiffBrowserViews(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newDiffFixture(t, h)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	diff := h.URL + "/app/s/" + f.spaceID + "/~/changes/" + strconv.Itoa(f.number) + "/diff"
	for _, view := range []string{"inline", "markdown"} {
		b.Open(diff+"?view="+view, http.StatusOK)
		b.H1("Changes of #" + strconv.Itoa(f.number) + " Rework the guide")
		b.ShootViews("diff-"+view, "main h1")
	}
}
