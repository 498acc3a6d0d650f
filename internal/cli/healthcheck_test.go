package cli

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestHealthcheck(t *testing.T) {
	s := startServe(t, env(map[string]string{"QUIRE_DATA": t.TempDir()}), "--addr", "127.0.0.1:0")
	u, err := url.Parse(s.url)
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(u.Host)

	// As the image runs it: the address serve listens on, from QUIRE_ADDR,
	// with the unspecified host asked on loopback.
	code, out, stderr := runCmd(t, env(map[string]string{"QUIRE_ADDR": "0.0.0.0:" + port}), "healthcheck")
	if code != 0 || !strings.Contains(out, "200 OK") {
		t.Errorf("healthcheck of a running server: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, _, stderr = runCmd(t, env(nil), "healthcheck", "--addr", u.Host)
	if code != 0 {
		t.Errorf("healthcheck --addr %s: code %d, stderr %q", u.Host, code, stderr)
	}

	sick := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer sick.Close()
	code, _, stderr = runCmd(t, env(nil), "healthcheck", "--addr", strings.TrimPrefix(sick.URL, "http://"))
	if code != 1 || !strings.Contains(stderr, "503") {
		t.Errorf("healthcheck of a server answering 503: code %d, stderr %q", code, stderr)
	}

	s.stop(t)
	code, _, stderr = runCmd(t, env(nil), "healthcheck", "--addr", u.Host)
	if code != 1 || !strings.Contains(stderr, "health check") {
		t.Errorf("healthcheck of a stopped server: code %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, env(nil), "healthcheck", "--addr", "127.0.0.1:0")
	if code != 2 || !strings.Contains(stderr, "--addr") {
		t.Errorf("healthcheck --addr with port 0: code %d, stderr %q", code, stderr)
	}
}

func TestHealthzURL(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:8080":       "http://127.0.0.1:8080/healthz",
		":8080":              "http://127.0.0.1:8080/healthz",
		"[::]:8080":          "http://[::1]:8080/healthz",
		"127.0.0.1:9000":     "http://127.0.0.1:9000/healthz",
		"quire.internal:443": "http://quire.internal:443/healthz",
	} {
		if got, err := healthzURL(addr); err != nil || got != want {
			t.Errorf("healthzURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	for _, addr := range []string{"8080", "host:", "host:0"} {
		if got, err := healthzURL(addr); err == nil {
			t.Errorf("healthzURL(%q) = %q, want an error", addr, got)
		}
	}
}
