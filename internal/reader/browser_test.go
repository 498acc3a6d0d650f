package reader

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"quire/internal/testutil"
)

// fixtureServer serves the rendered fixture page at / and a picture for
// every file under /files/.
func fixtureServer(t *testing.T) *httptest.Server {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := r.RenderPage(&page, fixturePage(t)); err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 640, 360))
	for y := range 360 {
		for x := range 640 {
			img.Set(x, y, color.RGBA{R: uint8(40 + x/8), G: uint8(110 + y/6), B: 160, A: 255})
		}
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page.Bytes())
	})
	mux.Handle("GET "+AssetsPath+"{name}", r.AssetsHandler())
	mux.HandleFunc("GET /files/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pic.Bytes())
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &httptest.Server{Listener: l, Config: &http.Server{Handler: mux}}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// TestBrowser drives Chromium through the fixture page as a reader
// would: tabs by mouse and keyboard, the theme toggle, the copy buttons,
// and the sidebar behind its button at phone width; it saves
// screenshots at desktop and phone widths.
func TestBrowser(t *testing.T) {
	srv := fixtureServer(t)

	ctx, dir := testutil.Browser(t)

	save := func(name string, png []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", p)
	}
	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	str := func(expr string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return s
	}
	shoot := func(name string, full bool) {
		t.Helper()
		var png []byte
		var err error
		if full {
			png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
		} else {
			png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
		}
		if err != nil {
			t.Fatal(err)
		}
		save(name, png)
	}
	display := `getComputedStyle(document.getElementById("sidebar")).display`

	// Desktop.
	do(chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("main h1")))
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".code-block button[data-copy]").length`))
	if err != nil || n < 4 {
		t.Errorf("%d copy buttons (%v)", n, err)
	}
	if d := str(display); d == "none" {
		t.Error("the sidebar is hidden at desktop width")
	}

	// Tabs: a click selects the second tab and shows its panel; the
	// left arrow goes back to the first and moves the focus there.
	const tab2 = chromedp.CSS(`.tabs [role=tab]:nth-of-type(2)`)
	do(chromedp.Click(tab2))
	panelState := `(function(){var b=document.querySelector(".tabs");return Array.prototype.map.call(b.querySelectorAll("[role=tabpanel]"),function(p){return p.hidden?"hidden":"shown"}).join(",")+"/"+Array.prototype.map.call(b.querySelectorAll("[role=tab]"),function(t){return t.getAttribute("aria-selected")}).join(",")})()`
	if got := str(panelState); got != "hidden,shown/false,true" {
		t.Errorf("after clicking the second tab: %s", got)
	}
	do(chromedp.Focus(tab2), chromedp.KeyEvent(kb.ArrowLeft))
	if got := str(panelState); got != "shown,hidden/true,false" {
		t.Errorf("after the left arrow: %s", got)
	}
	if got := str(`document.activeElement.textContent`); got != "Linux" {
		t.Errorf("focus after the left arrow is on %q", got)
	}
	shoot("desktop-1280-light.png", true)

	// Theme toggle: switches, says so, and is remembered on reload.
	before := str(`document.documentElement.getAttribute("data-theme")`)
	do(chromedp.Click(chromedp.CSS(".theme-toggle")))
	after := str(`document.documentElement.getAttribute("data-theme")`)
	if before == after || after != "dark" && after != "light" {
		t.Errorf("theme %q → %q after the toggle", before, after)
	}
	if pressed := str(`document.querySelector(".theme-toggle").getAttribute("aria-pressed")`); pressed != map[string]string{"dark": "true", "light": "false"}[after] {
		t.Errorf("aria-pressed %q with theme %q", pressed, after)
	}
	do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("main h1")))
	if got := str(`document.documentElement.getAttribute("data-theme")`); got != after {
		t.Errorf("theme after reload %q, want %q", got, after)
	}
	if bg := str(`getComputedStyle(document.body).backgroundColor`); after == "dark" && bg == "rgb(255, 255, 255)" {
		t.Error("the dark theme left the background white")
	}
	shoot("desktop-1280-"+after+".png", true)
	// Back to the light theme for the phone screenshots.
	if after == "dark" {
		do(chromedp.Click(chromedp.CSS(".theme-toggle")))
	}

	// Phone: the sidebar hides behind its button.
	do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS("main h1")))
	if d := str(display); d != "none" {
		t.Errorf("the sidebar shows at phone width (display %s)", d)
	}
	if w := str(`String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("the page is %s px wide at phone width, wider than the screen", w)
	}
	shoot("phone-390.png", true)
	do(chromedp.Click(chromedp.CSS(".nav-toggle")))
	if d := str(display); d == "none" {
		t.Error("the sidebar stays hidden after the menu button")
	}
	if e := str(`document.querySelector(".nav-toggle").getAttribute("aria-expanded")`); e != "true" {
		t.Errorf("menu button aria-expanded=%s", e)
	}
	if a := str(`document.activeElement.closest("#sidebar") ? "in" : "out"`); a != "in" {
		t.Error("opening the menu does not move the focus into it")
	}
	shoot("phone-390-menu.png", false)
	do(chromedp.KeyEvent(kb.Escape))
	if d := str(display); d != "none" {
		t.Error("Escape does not close the menu")
	}
	if strings.TrimSpace(str(`document.title`)) == "" {
		t.Error("the page has no title")
	}
}
