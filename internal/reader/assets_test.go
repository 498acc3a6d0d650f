package reader

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"
)

// scriptDirective returns the script-src directive of a policy.
func scriptDirective(policy string) string {
	for _, d := range strings.Split(policy, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, "script-src") {
			return d
		}
	}
	return ""
}

// TestPageScriptsAreFiles checks that a page runs no inline script: its
// scripts are files at hashed addresses, which the assets handler serves
// to be kept for good, and the policy allows no inline script.
func TestPageScriptsAreFiles(t *testing.T) {
	if d := scriptDirective(ContentSecurityPolicy); d != "script-src 'self'" {
		t.Errorf("policy's %q, want script-src 'self'", d)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := renderFixture(t, fixturePage(t))
	scripts := findAll(doc, byTag(atom.Script))
	if len(scripts) != 2 {
		t.Fatalf("%d scripts, want 2", len(scripts))
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+AssetsPath+"{name}", r.AssetsHandler())
	for _, s := range scripts {
		if s.FirstChild != nil && strings.TrimSpace(s.FirstChild.Data) != "" {
			t.Errorf("inline script %q", s.FirstChild.Data)
		}
		src, _ := attr(s, "src")
		if !strings.HasPrefix(src, AssetsPath) || !strings.HasSuffix(src, ".js") {
			t.Fatalf("script at %q", src)
		}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest("GET", src, nil))
		if w.Code != 200 || w.Body.Len() == 0 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") ||
			!strings.Contains(w.Header().Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d %v, %d bytes", src, w.Code, w.Header(), w.Body.Len())
		}
	}
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest("GET", AssetsPath+"reader.js", nil))
	if w.Code != 404 {
		t.Errorf("a name without its hash: %d, want 404", w.Code)
	}
	w = httptest.NewRecorder()
	r.StartHandler(NoSites{}, StartPage{}, slog.Default()).ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if got := w.Header().Get("Content-Security-Policy"); got != ContentSecurityPolicy {
		t.Errorf("start page policy %q", got)
	}
}
