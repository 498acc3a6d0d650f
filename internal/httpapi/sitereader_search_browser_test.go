package httpapi

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
)

// TestSiteSearchBrowser types "git sync" into a published site's search
// box, found by its role and accessible name, and checks in Chromium
// that the page titled "GitHub & GitLab Sync" comes first, above a page
// that only repeats the words in its text, with a snippet whose matched
// words are marked, in the box's list and on the results page; page text
// that looks like markup stays text. Screenshots at desktop and phone
// widths go to $QUIRE_SCREENSHOT_DIR when set.
func TestSiteSearchBrowser(t *testing.T) {
	ts := newConfiguredServer(t, engineSQLite, nil)
	s := ts.newReaderSite(t)
	cr := str(ts.newChangeRequest(t, s.guides, "Git Sync pages"), "id")
	ts.writeContent(t, s.guides, cr,
		insertPage("Monorepos", "Git Sync works with monorepos: `<img src=x onerror=alert(1)>` tells git sync which folder to read, and git sync writes back to it."),
		insertPage("GitHub & GitLab Sync", "Keep a space and a repository in sync: each commit becomes a revision.\n\n## Permissions\n\nGit Sync needs write access."))
	ts.mergeCR(t, s.guides, cr)
	ts.awaitIndexed(t, s.guides)

	b := newReaderBrowser(t)
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		do := b.do
		do(chromedp.EmulateViewport(size.width, size.height), chromedp.Navigate(ts.URL+"/sites/docs/"))
		b.h1("Welcome")

		// The search box's list.
		b.focusByRole("searchbox", "Search")
		do(chromedp.KeyEvent("git sync"))
		if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`(function(){var a=document.querySelector('[role=listbox][aria-label="Search results"] .search-all a');return !!a && a.textContent.indexOf("git sync")>=0})()`)); err != nil {
			t.Fatalf("%s: the list of results never showed: %v", size.name, err)
		}
		b.checkResults(size.name+" list", `[role=listbox][aria-label="Search results"] [role=option].search-hit`)
		if w := b.js(`String(document.documentElement.scrollWidth)`); w != strconv.FormatInt(size.width, 10) {
			t.Errorf("%s: the page is %s px wide with the list open", size.name, w)
		}
		b.shoot("search-list-" + size.name + ".png")

		// The list closes when focus leaves the box and comes back with it.
		list := `document.querySelector('[role=listbox][aria-label="Search results"]').hidden ? "hidden" : "shown"`
		b.js(`document.activeElement.blur(), ""`)
		if got := b.js(list); got != "hidden" {
			t.Errorf("%s: the list is %s once focus left", size.name, got)
		}
		b.focusByRole("searchbox", "Search")
		if got := b.js(list); got != "shown" {
			t.Errorf("%s: the list is %s with focus back", size.name, got)
		}

		// Enter sends the form: the results page.
		do(chromedp.KeyEvent("\r"))
		b.h1("Search results")
		b.checkResults(size.name+" page", `main ol[aria-label="Results"] > li.search-hit`)
		if got := b.js(`document.querySelector("main .search-summary").textContent`); got != "2 pages match “git sync”." {
			t.Errorf("%s: summary %q", size.name, got)
		}
		if w := b.js(`String(document.documentElement.scrollWidth)`); w != strconv.FormatInt(size.width, 10) {
			t.Errorf("%s: the results page is %s px wide", size.name, w)
		}
		b.shoot("search-page-" + size.name + ".png")
	}
}

// checkResults checks the results listed by sel: "GitHub & GitLab Sync"
// first, "Monorepos" after it, a marked word in the first's snippet, and
// the markup-like text of Monorepos shown as text.
func (b *readerBrowser) checkResults(where, sel string) {
	b.t.Helper()
	titles := b.js(`Array.prototype.map.call(document.querySelectorAll(` + jsString(sel+" .search-hit-title") + `),function(e){return e.textContent}).join("|")`)
	all := strings.Split(titles, "|")
	mono := strings.Index(titles, "Monorepos")
	if all[0] != "GitHub & GitLab Sync" || mono < 0 {
		b.t.Fatalf("%s: results %q, want GitHub & GitLab Sync first and Monorepos after", where, titles)
	}
	first := `document.querySelector(` + jsString(sel) + `)`
	marks := b.js(`Array.prototype.map.call(` + first + `.querySelectorAll(".search-hit-snippet mark"),function(e){return e.textContent}).join(",")`)
	if marks == "" {
		b.t.Errorf("%s: the first snippet marks nothing: %q", where, b.js(first+`.textContent`))
	}
	for _, m := range strings.Split(marks, ",") {
		if !strings.HasPrefix(strings.ToLower(m), "git") && !strings.HasPrefix(strings.ToLower(m), "sync") {
			b.t.Errorf("%s: %q is marked", where, m)
		}
	}
	if got := b.js(first + `.querySelector("a").getAttribute("href")`); !strings.HasPrefix(got, "/sites/docs/github") || strings.Contains(got, "#") {
		b.t.Errorf("%s: the first result leads to %q", where, got)
	}
	if n := b.js(`String(document.querySelectorAll(` + jsString(sel+" img") + `).length)`); n != "0" {
		b.t.Errorf("%s: page text became %s image elements", where, n)
	}
	if got := b.js(`Array.prototype.map.call(document.querySelectorAll(` + jsString(sel+" .search-hit-snippet") + `),function(e){return e.textContent}).join("|")`); !strings.Contains(got, "<img src=x onerror=alert(1)>") {
		b.t.Errorf("%s: the snippets lost the text of Monorepos: %q", where, got)
	}
}

// focusByRole focuses the element with a role and accessible name, as
// assistive technology sees them.
func (b *readerBrowser) focusByRole(role, name string) {
	b.t.Helper()
	b.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		doc, err := cdp.Call(ctx, t, dom.GetDocument, dom.GetDocumentParams{})
		if err != nil {
			return err
		}
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{NodeID: doc.Root.NodeID, Role: role, AccessibleName: name})
		if err != nil {
			return err
		}
		if len(res.Nodes) != 1 {
			b.t.Fatalf("%d elements with role %s named %q", len(res.Nodes), role, name)
		}
		_, err = cdp.Call(ctx, t, dom.Focus, dom.FocusParams{BackendNodeID: res.Nodes[0].BackendDOMNodeID})
		return err
	}))
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
