package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"quire/internal/httpapi"
)

// pathParam matches a parameter of a route pattern: {name}, {name...}
// or the end anchor {$}.
var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// concretePath fills every parameter of a route pattern with a value,
// several segments for a wildcard.
func concretePath(pattern string) string {
	return pathParam.ReplaceAllStringFunc(pattern, func(p string) string {
		switch {
		case p == "{$}":
			return ""
		case strings.HasSuffix(p, "...}"):
			return "some/page"
		}
		return "x"
	})
}

// muxNotFound reports whether an answer is the router's "no such
// address", rather than a 404 an operation gave for an entity it could
// not find.
func muxNotFound(status int, body []byte) bool {
	if status != http.StatusNotFound {
		return false
	}
	if strings.TrimSpace(string(body)) == "404 page not found" {
		return true // net/http's own
	}
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return false
	}
	return e.Error.Message == "not found" || strings.HasPrefix(e.Error.Message, "no such endpoint")
}

// TestServeRoutesEveryDeclaredRoute sends a request for every route the
// route table declares, API operations and browser endpoints, to a
// running server: each reaches its handler, whatever the handler then
// answers, instead of stopping at the router.
func TestServeRoutesEveryDeclaredRoute(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s := startServe(t, env(nil), "--addr", "127.0.0.1:0", "--data", dir)
	raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(raw))

	type target struct{ id, method, path string }
	var targets []target
	api, browser := httpapi.RouteTable()
	for _, r := range api {
		targets = append(targets, target{r.ID, r.Method, r.Path})
	}
	for _, r := range browser {
		targets = append(targets, target{r.ID, r.Method, r.Path})
	}
	if len(api) == 0 || len(browser) == 0 {
		t.Fatalf("route table: %d operations, %d browser endpoints", len(api), len(browser))
	}
	// The routes a published site is read at.
	targets = append(targets, target{"readSite", http.MethodGet, "/sites/{site}/{rest...}"})

	// The router's answer is recognized as such.
	for _, path := range []string{"/nowhere", "/v1/nowhere", "/docs"} {
		if code, body := s.get(t, path, token); !muxNotFound(code, []byte(body)) {
			t.Fatalf("%s = %d %s: not recognized as the router's 404", path, code, body)
		}
	}
	for _, tg := range targets {
		path := concretePath(tg.path)
		var body io.Reader
		if tg.method == http.MethodPost || tg.method == http.MethodPut || tg.method == http.MethodPatch {
			body = strings.NewReader("{}")
		}
		req, err := http.NewRequestWithContext(t.Context(), tg.method, s.url+path, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tg.method, path, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if muxNotFound(resp.StatusCode, b) {
			t.Errorf("%s (%s %s) is not routed: %d %.200s", tg.id, tg.method, path, resp.StatusCode, b)
		}
	}
}
