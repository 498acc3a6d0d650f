package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// call sends a JSON request with the bearer token and decodes the answer.
func (s *server) call(t *testing.T, method, path, token string, body any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, s.url+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, m
}

// fetchOwnHealth asks a fresh server to insert a file fetched from its
// own /healthz and returns the status and body of the answer.
func fetchOwnHealth(t *testing.T, args ...string) (int, map[string]any) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	s := startServe(t, env(nil), append([]string{"--addr", "127.0.0.1:0", "--data", dir}, args...)...)
	raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(raw))
	_, orgs := s.call(t, "GET", "/v1/orgs", token, nil)
	org := orgs["items"].([]any)[0].(map[string]any)["id"].(string)
	code, sp := s.call(t, "POST", "/v1/orgs/"+org+"/spaces", token, map[string]any{"title": "Files"})
	if code != 201 {
		t.Fatalf("create space: %d %v", code, sp)
	}
	space := sp["id"].(string)
	code, cr := s.call(t, "POST", "/v1/spaces/"+space+"/change-requests", token, map[string]any{"subject": "Files"})
	if code != 201 {
		t.Fatalf("create change request: %d %v", code, cr)
	}
	return s.call(t, "POST", "/v1/spaces/"+space+"/change-requests/"+cr["id"].(string)+"/content", token,
		map[string]any{"changes": []any{map[string]any{"operation": "insert_files",
			"files": []any{map[string]any{"name": "health.txt", "url": s.url + "/healthz"}}}}})
}

func TestServeRefusesLocalFetches(t *testing.T) {
	code, body := fetchOwnHealth(t)
	msg, _ := body["error"].(map[string]any)["message"].(string)
	if code != 400 || !strings.Contains(msg, "changes[0].files[0].url") || !strings.Contains(msg, "could not fetch") {
		t.Errorf("fetching the server's own /healthz: %d %v", code, body)
	}

	code, body = fetchOwnHealth(t, "--allow-local-fetch")
	if code != 200 {
		t.Errorf("fetching the server's own /healthz with --allow-local-fetch: %d %v", code, body)
	}
}
