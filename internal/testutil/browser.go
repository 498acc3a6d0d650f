package testutil

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browserTimeout bounds one test's whole browser session.
const browserTimeout = 90 * time.Second

// Browser starts a headless Chromium for t, ended with the test, and
// returns a chromedp context driving it and the directory screenshots go
// to ($QUIRE_SCREENSHOT_DIR, or one of the test's own). The browser is
// $QUIRE_CHROMIUM or chromium on the PATH; without one the test fails,
// unless QUIRE_SKIP_BROWSER=1 says to skip it.
func Browser(t testing.TB) (context.Context, string) {
	t.Helper()
	exe := chromium(t)
	dir := os.Getenv("QUIRE_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.Flag("hide-scrollbars", true), chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, browserTimeout)
	t.Cleanup(cancelTimeout)
	return ctx, dir
}

// chromium finds the browser Browser drives.
func chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("QUIRE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("QUIRE_SKIP_BROWSER") == "1" {
		t.Skip("QUIRE_SKIP_BROWSER=1: the browser test is skipped")
	}
	t.Fatal("no chromium found: install it (apt-get install chromium), point QUIRE_CHROMIUM at a Chromium binary, or set QUIRE_SKIP_BROWSER=1 to skip this test")
	return ""
}
