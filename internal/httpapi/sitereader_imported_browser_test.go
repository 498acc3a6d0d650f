package httpapi

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Scripts the browser test measures pages with.
const (
	// sourceShown lists the texts of the main content that show HTML or
	// Liquid source, and the elements the reader used to show it in.
	sourceShown = `(function(){var out=[],re=/<\/?[a-zA-Z][a-zA-Z0-9-]*[\s>\/]|\{%/,main=document.querySelector("main");
var w=document.createTreeWalker(main,NodeFilter.SHOW_TEXT);
while(w.nextNode()){var n=w.currentNode;if(re.test(n.data))out.push(n.parentElement.tagName+": "+n.data.trim().slice(0,80))}
main.querySelectorAll("code.raw-inline,pre.raw-block").forEach(function(e){out.push("raw "+e.textContent.slice(0,80))});
return out.join("\n")})()`
	// brokenImages loads every image of the main content at once and
	// lists those that show nothing: not decoded, no natural width, or no
	// rendered size.
	brokenImages = `Promise.all(Array.prototype.map.call(document.querySelectorAll("main img"),function(i){
i.loading="eager";return i.decode().then(function(){var r=i.getBoundingClientRect();
return i.naturalWidth>0&&r.width>0&&r.height>0?"":"empty "+i.currentSrc},function(){return "broken "+i.currentSrc})}))
.then(function(l){return l.filter(Boolean).join("\n")||(document.querySelectorAll("main img").length+" images")})`
	// probedInSidebar tells whether the probed element lies inside the
	// sidebar's visible box and the window.
	probedInSidebar = `(function(){var e=document.querySelector("[data-probe=current]"),s=document.getElementById("sidebar").getBoundingClientRect(),r=e.getBoundingClientRect();
return r.height>0&&r.top>=s.top-1&&r.bottom<=s.bottom+1&&r.top>=0&&r.bottom<=innerHeight?"visible":"at "+r.top+"-"+r.bottom+" of "+s.top+"-"+s.bottom})()`
	// headerRows counts the rows the header's first line takes: its
	// visible items starting below the first one's bottom.
	headerRows = `(function(){var items=Array.prototype.filter.call(document.querySelector(".header-row").children,function(e){return e.getBoundingClientRect().width>0});
var first=items[0].getBoundingClientRect(),rows=1;items.forEach(function(e){if(e.getBoundingClientRect().top>=first.bottom)rows=2});return String(rows)})()`
)

// TestSiteReaderImportedBrowser walks a site imported from a GitBook
// repository in Chromium at desktop and phone widths: no HTML source
// shown as text, every image (SVG too) drawn, the hidden title hidden,
// the current page's branch open and its link in the sidebar's view,
// the outline following the heading read, and a one-row phone header.
// Screenshots go to $QUIRE_SCREENSHOT_DIR when set.
func TestSiteReaderImportedBrowser(t *testing.T) {
	ts := newConfiguredServer(t, engineSQLite, nil)
	ts.importedSite(t)
	b := newReaderBrowser(t)
	do, js, h1, shoot := b.do, b.js, b.h1, b.shoot
	jsAwait := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	readable := func(page string, images int) {
		t.Helper()
		if got := js(sourceShown); got != "" {
			t.Errorf("%s shows source as text:\n%s", page, got)
		}
		if got := jsAwait(brokenImages); got != strconv.Itoa(images)+" images" {
			t.Errorf("%s: images: %s, want %d drawn", page, got, images)
		}
	}
	for _, width := range []int{1280, 375} {
		phone := width < 800
		suffix := "-" + strconv.Itoa(width) + ".png"
		if phone {
			do(chromedp.EmulateViewport(375, 812, chromedp.EmulateScale(2)))
		} else {
			do(chromedp.EmulateViewport(1280, 900))
		}

		// The welcome page: raw HTML drawn, SVG and PNG images shown.
		do(chromedp.Navigate(ts.URL + "/sites/handbook/"))
		h1("Welcome")
		readable("welcome", 3)
		if phone {
			if got := js(headerRows); got != "1" {
				t.Errorf("the phone header takes %s rows", got)
			}
			if w := js(`String(document.documentElement.scrollWidth)`); w != "375" {
				t.Errorf("the page is %s px wide at 375 px", w)
			}
		} else {
			// The outline marks the heading scrolled to.
			do(chromedp.Evaluate[chromedp.Void](`document.getElementById("files").scrollIntoView()`))
			if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`(document.querySelector('.outline a[aria-current]')||{}).textContent === "Files"`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
				t.Errorf("the outline does not mark the heading scrolled to: %v (%s)", err, js(`(document.querySelector('.outline a[aria-current]')||{}).textContent||"none"`))
			}
			do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0,0)`))
		}
		shoot("imported-welcome" + suffix)

		// A page five levels deep, after thirty others in the tree.
		do(chromedp.Navigate(ts.URL + js(`document.querySelector('#sidebar a[href$="/bookworm"]').getAttribute("href")`)))
		h1("Bookworm")
		if phone {
			do(chromedp.Click("Menu", byRole("button", "Menu")))
		}
		b.probe("link", "Bookworm", "current")
		if got := js(probedInSidebar); got != "visible" {
			t.Errorf("the current page's link is not in the sidebar's view: %s", got)
		}
		if png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot()); err == nil {
			_ = os.WriteFile(filepath.Join(b.dir, "imported-bookworm-view"+suffix), png, 0o644)
		}
		for name, want := range map[string]string{"Pages under Guides": "true", "Pages under Linux": "true", "Pages under Debian": "true", "Pages under Tutorials": "false"} {
			b.probe("button", name, name)
			if got := js(`document.querySelector('[data-probe="` + name + `"]').getAttribute("aria-expanded")`); got != want {
				t.Errorf("%s: aria-expanded=%s, want %s", name, got, want)
			}
		}
		if got := js(`String(Array.prototype.find.call(document.querySelectorAll("#sidebar a"),function(a){return a.textContent==="First tutorial"}).getBoundingClientRect().height)`); got != "0" {
			t.Errorf("a closed branch's page shows (height %s)", got)
		}
		do(chromedp.Click("Pages under Tutorials", byRole("button", "Pages under Tutorials")))
		b.probe("link", "First tutorial", "opened")
		if got := js(`document.querySelector("[data-probe=opened]").getBoundingClientRect().height > 0 ? "shown" : "hidden"`); got != "shown" {
			t.Error("opening a branch does not show its pages")
		}
		shoot("imported-bookworm" + suffix)

		// Debian: images by paths relative to a deep page.
		do(chromedp.Navigate(ts.URL + js(`document.querySelector('#sidebar a[href$="/debian"]').getAttribute("href")`)))
		h1("Debian")
		readable("debian", 2)

		// A page whose layout hides its title and description.
		do(chromedp.Navigate(ts.URL + "/sites/handbook/plain"))
		do(chromedp.WaitReady(chromedp.CSS("main h1")))
		b.probe("heading", "Plain", "title")
		if got := js(`(function(){var r=document.querySelector("[data-probe=title]").getBoundingClientRect();return r.width<=1&&r.height<=1?"hidden":r.width+"x"+r.height})()`); got != "hidden" {
			t.Errorf("the hidden title is drawn (%s)", got)
		}
		if got := js(`document.querySelector("main .description") ? "shown" : "none"`); got != "none" {
			t.Error("the hidden description is drawn")
		}
		shoot("imported-plain" + suffix)
	}
}
