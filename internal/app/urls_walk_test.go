package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
)

// appURLs collects every urls.app of a JSON answer, at any depth.
func appURLs(v any, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		if u, ok := v["urls"].(map[string]any); ok {
			if s, ok := u["app"].(string); ok {
				into[s] = true
			}
		}
		for _, c := range v {
			appURLs(c, into)
		}
	case []any:
		for _, c := range v {
			appURLs(c, into)
		}
	}
}

// apiJSON calls the API with a token and decodes its JSON answer.
func (h *harness) apiJSON(t *testing.T, token, path string) any {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v any
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
	}
	return v
}

// appURLKinds are the objects whose urls.app the API answers, by the
// shape of their address; the walk must meet one of each.
var appURLKinds = map[string]*regexp.Regexp{
	"organization":          regexp.MustCompile(`/app/o/[^/]+$`),
	"collection":            regexp.MustCompile(`/app/c/[^/]+$`),
	"space":                 regexp.MustCompile(`/app/s/[^/]+$`),
	"page":                  regexp.MustCompile(`/app/s/[^/]+/[^~/][^/]*(?:/[^/]+)*$`),
	"change request":        regexp.MustCompile(`/app/s/[^/]+/~/changes/\d+$`),
	"revision":              regexp.MustCompile(`/app/s/[^/]+/~/revisions/[^/]+$`),
	"site":                  regexp.MustCompile(`/app/o/[^/]+/sites/[^/]+$`),
	"integration":           regexp.MustCompile(`/app/integrations/[^/]+$`),
	"installation":          regexp.MustCompile(`/app/o/[^/]+/integrations/[^/]+$`),
	"OpenAPI specification": regexp.MustCompile(`/app/o/[^/]+/openapi/[^/]+$`),
}

// TestAppURLsWalk asks the API for one object of every kind, follows each
// urls.app it answers in the browser as the organization's admin (every
// one a page with its heading), and checks that an outsider gets the same
// 404 as for a missing page and a visitor who is not signed in is sent to
// sign in.
func TestAppURLsWalk(t *testing.T) {
	var (
		mu    sync.Mutex
		acfgs = map[*harness]*app.Config{}
	)
	keep := func(h *harness, cfg *httpapi.Config, acfg *app.Config) {
		withAdminAreas(h, cfg, acfg)
		mu.Lock()
		acfgs[h] = acfg
		mu.Unlock()
	}
	h := newHarness(t, "sqlite", keep)
	ctx := context.Background()
	site := seedAdminPages(t, h, acfgs[h])
	f := newSpaceFixture(t, h)
	col, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", "")
	if err != nil {
		t.Fatal(err)
	}
	urls := map[string]bool{}
	for _, p := range []string{
		"/v1/orgs/" + h.Org,
		"/v1/collections/" + col.Collection.ID,
		"/v1/spaces/" + f.Space.ID,
		"/v1/spaces/" + f.Space.ID + "/content",
		"/v1/spaces/" + f.Space.ID + "/change-requests",
		"/v1/spaces/" + f.Space.ID + "/revisions/" + f.OldRevision,
		"/v1/orgs/" + h.Org + "/sites/" + site.ID,
		"/v1/integrations/watcher",
		"/v1/integrations/watcher/installations",
		"/v1/orgs/" + h.Org + "/openapi/petstore",
	} {
		appURLs(h.apiJSON(t, h.AdminToken, p), urls)
	}
	var all []string
	for u := range urls {
		if !strings.HasPrefix(u, h.URL+"/app/") {
			t.Fatalf("urls.app %s is not under %s/app/", u, h.URL)
		}
		all = append(all, u)
	}
	sort.Strings(all)
	for kind, re := range appURLKinds {
		found := false
		for _, u := range all {
			found = found || re.MatchString(u)
		}
		if !found {
			t.Errorf("the walk met no urls.app of a %s among %v", kind, all)
		}
	}

	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	outsider := h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
	anonymous := h.client(t, nil)
	_, _, missing := h.get(t, outsider, "/app/o/nosuchorg")
	for _, u := range all {
		b.Open(u, http.StatusOK)
		if h1 := strings.TrimSpace(b.JS(`(document.querySelector("main h1") || {}).textContent || ""`)); h1 == "" {
			t.Errorf("%s: no main heading", u)
		}
		path := strings.TrimPrefix(u, h.URL)
		if status, _, body := h.get(t, outsider, path); status != http.StatusNotFound || body != missing {
			t.Errorf("outsider %s: %d, or a page unlike a missing one's", path, status)
		}
		if status, loc, _ := h.get(t, anonymous, path); status != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in?next=") {
			t.Errorf("not signed in %s: %d %q", path, status, loc)
		}
	}
	t.Logf("followed %d urls.app", len(all))
}
