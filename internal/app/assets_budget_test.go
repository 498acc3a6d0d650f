package app_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// assetBudget is the most the stylesheets and scripts of the app may
// weigh together, uncompressed: as a browser downloads them, and as they
// are written in the source tree and embedded. It is 100,000 bytes,
// read as decimal (not 100 KiB): see docs/decisions.md.
const assetBudget = 100_000

// assetRef finds the stylesheets and scripts a page loads.
var assetRef = regexp.MustCompile(`<(?:script[^>]* src|link[^>]* href)="(/[^"]+\.(?:js|css))"`)

// TestAssetBudget checks the stylesheets and scripts against the budget
// twice. As written: every one the app and the reader embed, added up
// before minifying. As served: it loads pages of every kind the app has
// (a space's page with its editor and comments, a change request, the
// inbox, the organization) as a browser would, and adds up what they
// load, each counted once.
func TestAssetBudget(t *testing.T) {
	t.Parallel()
	// The files the app and the reader embed, beside this package: the
	// app's assets/*.css and assets/*.js, and the reader's reader.css,
	// reader.js and theme.js.
	source := 0
	for _, pattern := range []string{"assets/*.css", "assets/*.js", "../reader/assets/*.css", "../reader/assets/*.js"} {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no file matches %s: %v", pattern, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%-60s %7d", f, len(b))
			source += len(b)
		}
	}
	t.Logf("%-60s %7d (budget %d)", "source total", source, assetBudget)
	if source > assetBudget {
		t.Errorf("the app's and the reader's CSS and JavaScript weigh %d bytes as written, over the budget of %d", source, assetBudget)
	}

	h := newHarness(t, "sqlite")
	f := newSpaceFixture(t, h)
	c := h.client(t, h.signIn(t, h.Admin))
	n := strconv.Itoa(f.Open)
	seen := map[string]bool{}
	total := 0
	for _, page := range []string{
		"/app/s/" + f.Space.ID + "/guides/install",
		"/app/s/" + f.Space.ID + "/~/changes/" + n,
		"/app/s/" + f.Space.ID + "/~/changes/" + n + "/guides/install",
		"/app/inbox",
		"/app/o/" + h.Org,
	} {
		st, _, body := h.get(t, c, page)
		if st != http.StatusOK {
			t.Fatalf("GET %s: %d", page, st)
		}
		refs := assetRef.FindAllStringSubmatch(body, -1)
		if len(refs) == 0 {
			t.Fatalf("GET %s loads no stylesheet or script", page)
		}
		for _, m := range refs {
			if seen[m[1]] {
				continue
			}
			seen[m[1]] = true
			res, err := c.Get(h.URL + m[1])
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d, %v", m[1], res.StatusCode, err)
			}
			t.Logf("%-60s %7d", m[1], len(b))
			total += len(b)
		}
	}
	t.Logf("%-60s %7d (budget %d)", "served total", total, assetBudget)
	if total > assetBudget {
		t.Errorf("the app's pages load %d bytes of CSS and JavaScript, over the budget of %d", total, assetBudget)
	}
}
