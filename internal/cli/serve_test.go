package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestServeLifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	getenv := env(nil)
	s := startServe(t, getenv, "--addr", "127.0.0.1:0", "--data", dir)

	// First start: bootstrapped, token shown once and kept in a private file.
	lines := tokenLines(s.stderr.String())
	if len(lines) != 1 {
		t.Fatalf("want one token line, got %d:\n%s", len(lines), s.stderr)
	}
	path := filepath.Join(dir, adminTokenFile)
	if !strings.HasSuffix(lines[0], "(also written to "+path+")") {
		t.Errorf("token line does not name the file: %s", lines[0])
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("admin-token mode = %v, want 0600", fi.Mode().Perm())
	}
	if di, err := os.Stat(dir); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("data dir mode = %v (%v), want 0700", di.Mode().Perm(), err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(raw))
	if token == "" || !strings.Contains(lines[0], token) {
		t.Fatalf("file token %q not the one shown: %s", token, lines[0])
	}
	if !strings.Contains(s.stderr.String(), "listening addr="+strings.TrimPrefix(s.url, "http://")) {
		t.Errorf("no listening line with the bound address:\n%s", s.stderr)
	}

	if code, body := s.get(t, "/healthz", ""); code != 200 || strings.TrimSpace(body) != `{"status":"ok"}` {
		t.Errorf("/healthz = %d %s", code, body)
	}
	if code, body := s.get(t, "/readyz", ""); code != 200 {
		t.Errorf("/readyz = %d %s", code, body)
	}
	if code, body := s.get(t, "/v1/user", ""); code != 401 {
		t.Errorf("/v1/user without token = %d %s", code, body)
	}
	code, body := s.get(t, "/v1/user", token)
	if code != 200 {
		t.Errorf("/v1/user with the admin token = %d %s", code, body)
	} else if !strings.Contains(body, DefaultAdminEmail) {
		t.Errorf("/v1/user is not the admin: %s", body)
	}
	if code, body := s.get(t, "/nowhere", ""); code != 404 || !strings.Contains(body, `"code":404`) {
		t.Errorf("/nowhere = %d %s", code, body)
	}
	// Metrics are not on the API listener when no metrics address is set.
	if code, body := s.get(t, "/metrics", ""); code != 404 {
		t.Errorf("/metrics on the API listener = %d %s", code, body)
	}
	if !strings.Contains(s.stderr.String(), "msg=request method=GET path=/healthz") {
		t.Errorf("no request log line:\n%s", s.stderr)
	}

	if code := s.stop(t); code != 0 {
		t.Fatalf("serve exited with %d after shutdown:\n%s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "msg=stopped") {
		t.Errorf("no stop line:\n%s", s.stderr)
	}

	// Second start on the same data: no bootstrap, token file untouched.
	s2 := startServe(t, getenv, "--addr", "127.0.0.1:0", "--data", dir)
	if lines := tokenLines(s2.stderr.String()); len(lines) != 0 {
		t.Errorf("second start bootstrapped again:\n%s", s2.stderr)
	}
	if raw2, _ := os.ReadFile(path); string(raw2) != string(raw) {
		t.Error("second start rewrote admin-token")
	}
	if code, body := s2.get(t, "/v1/user", token); code != 200 {
		t.Errorf("/v1/user after restart = %d %s", code, body)
	}
	if code := s2.stop(t); code != 0 {
		t.Fatalf("second serve exited with %d:\n%s", code, s2.stderr)
	}
}

func TestServeMetricsListener(t *testing.T) {
	s := startServe(t, env(map[string]string{"QUIRE_METRICS_ADDR": "127.0.0.1:0"}),
		"--addr", "127.0.0.1:0", "--data", t.TempDir())
	m := regexp.MustCompile(`msg="metrics listening" addr=(\S+)`).FindStringSubmatch(s.stderr.String())
	if m == nil {
		t.Fatalf("no metrics listening line:\n%s", s.stderr)
	}
	metrics := &server{url: "http://" + m[1]}
	if code, _ := s.get(t, "/healthz", ""); code != 200 {
		t.Fatalf("/healthz = %d", code)
	}
	if code, body := s.get(t, "/metrics", ""); code != 404 || !strings.Contains(body, `"code":404`) {
		t.Errorf("/metrics on the API listener = %d %s", code, body)
	}
	code, body := metrics.get(t, "/metrics", "")
	if code != 200 {
		t.Fatalf("/metrics = %d", code)
	}
	for _, want := range []string{
		`http_requests_total{method="GET",route="GET /healthz",status="200"} 1`,
		"go_goroutines",
		"process_start_time_seconds",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, _ := metrics.get(t, "/v1/user", ""); code != 404 {
		t.Errorf("the metrics listener serves the API: %d", code)
	}
	if code := s.stop(t); code != 0 {
		t.Fatalf("serve exited with %d:\n%s", code, s.stderr)
	}
}

func TestServeHeaders(t *testing.T) {
	s := startServe(t, env(nil), "--addr", "127.0.0.1:0", "--data", t.TempDir())
	for _, path := range []string{"/healthz", "/readyz", "/nowhere", "/v1/user", "/v1/nowhere", "/v1/openapi.json"} {
		resp, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s (%d): X-Content-Type-Options = %q", path, resp.StatusCode, got)
		}
		if got := resp.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s (%d): Cache-Control = %q", path, resp.StatusCode, got)
		}
	}
}

func TestServeBootstrapFlags(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, env(nil), "--addr", "127.0.0.1:0", "--data", dir,
		"--admin-email", "owner@example.com", "--admin-name", "Owner", "--org-title", "Acme",
		"--log-format", "json")
	raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
	if err != nil {
		t.Fatal(err)
	}
	code, body := s.get(t, "/v1/user", strings.TrimSpace(string(raw)))
	if code != 200 || !strings.Contains(body, "owner@example.com") {
		t.Errorf("/v1/user = %d %s", code, body)
	}
	code, body = s.get(t, "/v1/orgs", strings.TrimSpace(string(raw)))
	if code != 200 || !strings.Contains(body, "Acme") {
		t.Errorf("/v1/orgs = %d %s", code, body)
	}
	// JSON logs: every line but the token line parses.
	for _, l := range strings.Split(strings.TrimSpace(s.stderr.String()), "\n") {
		if strings.HasPrefix(l, "quire: ") {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Errorf("log line is not JSON: %s", l)
		}
	}
}

// TestServeStrictInput checks that the input mode reaches the API: by
// default an undeclared request field is ignored and logged at debug
// level; with QUIRE_STRICT_INPUT it is refused, and the OpenAPI document
// says which.
func TestServeStrictInput(t *testing.T) {
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%v", strict), func(t *testing.T) {
			dir := t.TempDir()
			s := startServe(t, env(map[string]string{"QUIRE_STRICT_INPUT": fmt.Sprint(strict)}),
				"--addr", "127.0.0.1:0", "--data", dir, "--log-level", "debug")
			raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
			if err != nil {
				t.Fatal(err)
			}
			token := strings.TrimSpace(string(raw))
			code, doc := s.get(t, "/v1/openapi.json", "")
			if code != 200 {
				t.Fatalf("openapi.json: %d", code)
			}
			if got := strings.Contains(doc, `"additionalProperties":false`); got != strict {
				t.Errorf("openapi.json forbids undeclared members: %v, want %v", got, strict)
			}
			code, body := s.get(t, "/v1/orgs", token)
			var orgs struct {
				Items []struct {
					ID string `json:"id"`
				} `json:"items"`
			}
			if err := json.Unmarshal([]byte(body), &orgs); code != 200 || err != nil || len(orgs.Items) == 0 {
				t.Fatalf("/v1/orgs = %d %s", code, body)
			}
			code, answer := s.call(t, "POST", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", token,
				map[string]any{"title": "Docs", "colour": "blue"})
			want := http.StatusCreated
			if strict {
				want = http.StatusBadRequest
			}
			if code != want || (strict && !strings.Contains(fmt.Sprint(answer), "colour")) {
				t.Errorf("create space with an undeclared field = %d %v, want %d", code, answer, want)
			}
			if logged := strings.Contains(s.stderr.String(), "colour"); logged == strict {
				t.Errorf("undeclared field logged: %v, want %v:\n%s", logged, !strict, s.stderr)
			}
		})
	}
}

func TestServeRefusesBadConfig(t *testing.T) {
	code, _, stderr := runCmd(t, env(nil), "serve", "--data", t.TempDir(), "--log-format", "xml")
	if code != 2 || !strings.Contains(stderr, "quire: --log-format") {
		t.Errorf("code %d, stderr %s", code, stderr)
	}
}

func TestServeAddressInUse(t *testing.T) {
	s := startServe(t, env(nil), "--addr", "127.0.0.1:0", "--data", t.TempDir())
	code, _, stderr := runCmd(t, env(nil), "serve", "--addr", strings.TrimPrefix(s.url, "http://"), "--data", t.TempDir())
	if code != 1 || !strings.Contains(stderr, "quire: ") {
		t.Errorf("code %d, stderr %s", code, stderr)
	}
}

// TestServeReplicasPostgres runs two servers side by side on one
// PostgreSQL database, configured through the environment: the first
// bootstraps, the second does not, and both serve the same data. (The
// bootstrap race of replicas starting at the same instant is
// TestBootstrapRacePostgres.)
func TestServeReplicasPostgres(t *testing.T) {
	getenv := env(map[string]string{"QUIRE_DATABASE_URL": postgresURL(t)})
	dir := t.TempDir()
	s1 := startServe(t, getenv, "--addr", "127.0.0.1:0", "--data", dir)
	s2 := startServe(t, getenv, "--addr", "127.0.0.1:0", "--data", t.TempDir())
	if n := len(tokenLines(s1.stderr.String())); n != 1 {
		t.Fatalf("first replica showed %d tokens:\n%s", n, s1.stderr)
	}
	if n := len(tokenLines(s2.stderr.String())); n != 0 {
		t.Fatalf("second replica bootstrapped again:\n%s", s2.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*server{s1, s2} {
		if code, body := s.get(t, "/readyz", ""); code != 200 {
			t.Errorf("/readyz = %d %s", code, body)
		}
		if code, body := s.get(t, "/v1/user", strings.TrimSpace(string(raw))); code != 200 {
			t.Errorf("/v1/user = %d %s", code, body)
		}
	}
	for _, s := range []*server{s1, s2} {
		if code := s.stop(t); code != 0 {
			t.Errorf("exit %d:\n%s", code, s.stderr)
		}
	}
}
