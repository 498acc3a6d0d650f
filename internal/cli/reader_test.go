package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReaderPages serves the start page and the API reference from a
// running server: HTML, not the JSON 404 of unknown paths.
func TestReaderPages(t *testing.T) {
	s := startServe(t, env(nil), "--addr", "127.0.0.1:0", "--data", filepath.Join(t.TempDir(), "data"))
	code, body := s.get(t, "/", "")
	if code != 200 || !strings.Contains(body, "<!doctype html>") {
		t.Fatalf("/ = %d %.200s", code, body)
	}
	for _, want := range []string{`href="/docs/api"`, "No published sites", `href="/v1/openapi.json"`} {
		if !strings.Contains(body, want) {
			t.Errorf("start page lacks %q", want)
		}
	}
	code, body = s.get(t, "/docs/api", "")
	if code != 200 {
		t.Fatalf("/docs/api = %d %.300s", code, body)
	}
	// Operations of the route table, with their method and path.
	for _, want := range []string{"getApiInformation", "listOrganizationsForAuthenticatedUser", "<code>/v1/orgs/{organizationId}</code>", `id="schemas"`} {
		if !strings.Contains(body, want) {
			t.Errorf("API reference lacks %q", want)
		}
	}
	// Each operation reads as a reference: its summary, what it does, and
	// who may call it.
	for _, want := range []string{"<p>Delete a space <span", "<p>Deletes the space: it is hidden from lists",
		"<p>Who may call it: callers with the admin role or higher on the space; "} {
		if !strings.Contains(body, want) {
			t.Errorf("API reference lacks %q", want)
		}
	}
	if code, body := s.get(t, "/nowhere", ""); code != 404 || !strings.Contains(body, `"code":404`) {
		t.Errorf("/nowhere = %d %s", code, body)
	}
	if code := s.stop(t); code != 0 {
		t.Fatalf("serve exited with %d:\n%s", code, s.stderr)
	}
}
