package app_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"quire/internal/testutil"
)

// TestPageOpsBrowser edits a change request's page tree in a real
// browser: adds a subpage from a page's actions menu, renames it, moves
// it with the keyboard (the menu, then the Move page's Outdent) and by
// dragging it into another page, duplicates a page and deletes the copy,
// and sets a page's emoji, hides it and uploads its cover; the tree, read through the
// accessibility tree, follows each step, and main keeps its pages.
// Screenshots of the open menu and of the settings page at desktop and
// phone widths, light and dark.
func TestPageOpsBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	o := newOpsSpace(t, h, false)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Viewport(1280, 900, false)
	b.Open(h.URL+o.PageBase+"a", http.StatusOK)
	b.H1("A")

	// Add a subpage of A from its menu.
	b.Click("button", "Page actions for A")
	if !b.Has("menuitem", "Add subpage") || !b.Has("menuitem", "Delete") {
		t.Fatal("the actions menu of A does not open")
	}
	b.Click("menuitem", "Add subpage")
	b.H1("New page")
	b.Fill("textbox", "Title", "Child")
	b.Click("button", "Add page")
	b.H1("Child")
	waitPath(t, b, "/a/child")
	if !b.Has("link", "Child") {
		t.Fatal("the tree does not list the new page")
	}

	// Rename it.
	b.Click("button", "Page actions for Child")
	b.Click("menuitem", "Rename")
	b.Fill("textbox", "Title", "Kid")
	b.Click("button", "Rename page")
	b.H1("Kid")
	waitPath(t, b, "/a/kid")

	// The keyboard: the menu opens and moves with the arrow keys, Escape
	// closes it; Move leads to the steps, Outdent puts Kid after A.
	b.JS(`document.querySelector('button[aria-label="Page actions for Kid"]').focus(); ""`)
	b.Do(chromedp.KeyEvent(kb.ArrowDown))
	if got := b.JS(`document.activeElement.textContent`); got != "Add subpage" {
		t.Fatalf("ArrowDown on the menu button focuses %q", got)
	}
	b.Do(chromedp.KeyEvent(kb.End))
	if got := b.JS(`document.activeElement.textContent`); got != "Delete" {
		t.Fatalf("End in the menu focuses %q", got)
	}
	b.Do(chromedp.KeyEvent(kb.Escape))
	if got := b.JS(`document.activeElement.getAttribute("aria-label")+" "+document.activeElement.getAttribute("aria-expanded")`); got != "Page actions for Kid false" {
		t.Fatalf("Escape leaves the focus on %q", got)
	}
	b.Do(chromedp.KeyEvent(kb.ArrowDown))
	b.Do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	if got := b.JS(`document.activeElement.textContent`); got != "Move" {
		t.Fatalf("four steps down the menu focus %q", got)
	}
	b.Do(chromedp.KeyEvent(kb.Enter))
	b.H1("Move “Kid”")
	b.Click("button", "Outdent")
	b.H1("Kid")
	waitPath(t, b, o.PageBase+"kid")
	if got := topLevel(b); got != "A,Kid,B,C" {
		t.Fatalf("after Outdent the top level is %s", got)
	}

	// Drag Kid into B.
	drag(t, b, "Kid", "B", "inside")
	waitPath(t, b, "/b/kid")
	b.H1("Kid")
	if got := topLevel(b); got != "A,B,C" {
		t.Fatalf("after the drop the top level is %s", got)
	}

	// Duplicate B (with Kid), then delete the copy.
	b.Click("button", "Page actions for B")
	b.Click("menuitem", "Duplicate")
	b.H1("B (copy)")
	if got := topLevel(b); got != "A,B,B (copy),C" {
		t.Fatalf("after duplicating the top level is %s", got)
	}
	b.Click("button", "Page actions for B (copy)")
	b.Click("menuitem", "Delete")
	b.H1("Delete “B (copy)”?")
	if !strings.Contains(b.JS(`document.querySelector("main").textContent`), "Its 1 subpage goes with it.") {
		t.Error("the delete page does not say the subpage goes too")
	}
	b.Click("button", "Delete page")
	b.WaitFor(`!!document.querySelector("main h1")`)
	if got := topLevel(b); got != "A,B,C" {
		t.Fatalf("after deleting the top level is %s", got)
	}

	// Settings of C: an emoji, and hidden.
	b.Click("button", "Page actions for C")
	b.Click("menuitem", "Page settings")
	b.H1("Page settings")
	settings := b.JS("location.href")
	b.Fill("textbox", "Emoji", "🌟")
	b.Click("checkbox", "Hidden")
	// Choose an image for the cover, as picking a file would.
	b.JS(`(function () {
		var bin = atob("` + base64.StdEncoding.EncodeToString(pngBytes(t)) + `"), bytes = new Uint8Array(bin.length);
		for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
		var dt = new DataTransfer();
		dt.items.add(new File([bytes], "Cover.png", {type: "image/png"}));
		document.getElementById("set-cover-upload").files = dt.files;
		return String(document.getElementById("set-cover-upload").files.length);
	})()`)
	b.Click("button", "Save settings")
	b.H1("C")
	if !strings.Contains(b.JS(`document.querySelector('#sidebar a[href$="/c"]').textContent`), "Hidden") {
		t.Errorf("the tree does not mark C hidden: %s", b.JS(`document.querySelector('#sidebar a[href$="/c"]').textContent`))
	}
	if !strings.Contains(b.JS(`document.querySelector('#sidebar a[href$="/c"]').textContent`), "🌟") {
		t.Error("the tree does not show C's emoji")
	}
	if main := treeOf(t, h, o.Main); main != "A[A1],B,C" {
		t.Errorf("main changed before a merge: %s", main)
	}
	if got := treeOf(t, h, o.Ref); got != "A[A1],B[Kid],C" {
		t.Errorf("the change request holds %s", got)
	}
	c := pageNamed(t, h, o.Ref, "C")
	if c.Emoji != "🌟" || !c.Hidden {
		t.Errorf("C's settings: emoji %q hidden %t", c.Emoji, c.Hidden)
	}
	if c.Cover == nil || c.Cover.Ref == nil || c.Cover.Ref.File == "" {
		t.Errorf("C's cover after choosing an image to upload: %+v", c.Cover)
	}

	// Screenshots: the open menu, then the settings page.
	for _, v := range []struct {
		view          string
		width, height int64
		phone         bool
	}{{"desktop", 1280, 900, false}, {"phone", 390, 844, true}} {
		for _, theme := range []string{"light", "dark"} {
			b.Viewport(v.width, v.height, v.phone)
			b.Open(h.URL+o.PageBase+"b", http.StatusOK)
			b.Theme(theme)
			b.WaitFor(`document.documentElement.getAttribute("data-theme") === "` + theme + `"`)
			if v.phone {
				b.Click("button", "Menu")
			}
			b.Click("button", "Page actions for B")
			b.WaitFor(`document.querySelector('[role=menu]:not([hidden])')`)
			b.Shoot("app-pageops-menu-" + v.view + "-" + theme + ".png")
		}
	}
	b.Viewport(1280, 900, false)
	b.Open(settings, http.StatusOK)
	b.ShootViews("app-pageops-settings", "main h1")
}

// topLevel lists the titles of the top level of the sidebar's page tree
// as the accessibility tree names its links.
func topLevel(b *testutil.BrowserPage) string {
	var names []string
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		v := b.JS(`document.readyState === "complete" ? JSON.stringify(Array.from(document.querySelectorAll(".space-tree > li > .tree-row > a:not(.tree-actions)")).map(function(a){return a.textContent.trim()})) : ""`)
		if v != "" {
			_ = json.Unmarshal([]byte(v), &names)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i, n := range names {
		if !b.Has("link", n) {
			names[i] = "(" + n + " not in the accessibility tree)"
		}
	}
	return strings.Join(names, ",")
}

// drag drops the tree's page from onto the page to, at place (before,
// after or inside), with the events a mouse's drag and drop fires.
func drag(t *testing.T, b *testutil.BrowserPage, from, to, place string) {
	t.Helper()
	q := func(s string) string { v, _ := json.Marshal(s); return string(v) }
	got := b.JS(`(function(){
		function row(title){return Array.from(document.querySelectorAll(".space-tree li[data-page] > .tree-row")).find(function(r){var a=r.querySelector("a:not(.tree-actions)");return a&&a.textContent.trim()===title})}
		var src=row(` + q(from) + `), dst=row(` + q(to) + `);
		if(!src||!dst) return "missing";
		var box=dst.getBoundingClientRect(), y=box.top+box.height/2;
		if(` + q(place) + `==="before") y=box.top+2;
		if(` + q(place) + `==="after") y=box.bottom-2;
		var dt=new DataTransfer();
		function fire(el,type){el.dispatchEvent(new DragEvent(type,{bubbles:true,cancelable:true,dataTransfer:dt,clientX:box.left+10,clientY:y}))}
		fire(src,"dragstart"); fire(dst,"dragenter"); fire(dst,"dragover"); fire(dst,"drop"); fire(src,"dragend");
		return "ok"})()`)
	if got != "ok" {
		t.Fatalf("drag %s onto %s: %s", from, to, got)
	}
}
