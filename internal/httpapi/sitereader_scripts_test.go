package httpapi

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// scriptTag matches a script element and what it holds.
var scriptTag = regexp.MustCompile(`(?s)<script([^>]*)>(.*?)</script>`)

// TestSiteReaderScripts checks that a published page, and the error page
// of an address with none, run no inline script: the policy allows
// scripts from the server's own files only, every script element names
// a file and holds no code, and each file is served.
func TestSiteReaderScripts(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		ts.newReaderSite(t)
		for _, path := range []string{"/sites/docs/", "/sites/docs/nowhere"} {
			r := ts.visit(t, path)
			policy := r.Header.Get("Content-Security-Policy")
			for _, d := range strings.Split(policy, ";") {
				if d = strings.TrimSpace(d); strings.HasPrefix(d, "script-src") && d != "script-src 'self'" {
					t.Errorf("%s: %q", path, d)
				}
			}
			if !strings.Contains(policy, "script-src 'self'") {
				t.Errorf("%s: policy %q", path, policy)
			}
			tags := scriptTag.FindAllSubmatch(r.Body, -1)
			if len(tags) == 0 {
				t.Fatalf("%s: no script", path)
			}
			for _, m := range tags {
				if len(bytes.TrimSpace(m[2])) > 0 {
					t.Errorf("%s: inline script %.60q", path, m[2])
				}
				src := regexp.MustCompile(`src="([^"]+)"`).FindSubmatch(m[1])
				if src == nil {
					t.Fatalf("%s: script without a file: %s", path, m[0])
				}
				js := ts.visit(t, string(src[1]))
				if js.Status != 200 || !strings.HasPrefix(js.Header.Get("Content-Type"), "text/javascript") || len(js.Body) == 0 ||
					js.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
					t.Errorf("%s: %d %v", src[1], js.Status, js.Header)
				}
			}
		}
	})
}
