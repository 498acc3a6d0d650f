package app_test

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"
)

// assetBudget is the most the stylesheets and scripts of a page of the
// app may weigh together, uncompressed, as a browser downloads them.
const assetBudget = 100 * 1024

// assetRef finds the stylesheets and scripts a page loads.
var assetRef = regexp.MustCompile(`<(?:script[^>]* src|link[^>]* href)="(/[^"]+\.(?:js|css))"`)

// TestAssetBudget loads pages of every kind the app has (a space's page
// with its editor and comments, a change request, the inbox, the
// organization) as a browser would, and adds up the stylesheets and
// scripts they load, each counted once: the whole stays under the
// budget.
func TestAssetBudget(t *testing.T) {
	t.Parallel()
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
	t.Logf("%-60s %7d (budget %d)", "total", total, assetBudget)
	if total > assetBudget {
		t.Errorf("the app's pages load %d bytes of CSS and JavaScript, over the budget of %d", total, assetBudget)
	}
}
