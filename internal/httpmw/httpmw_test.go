package httpmw

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"quire/internal/testutil"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// stack builds the chain a server uses around mux and returns it with the
// log output and the metrics registry.
func stack(t *testing.T, mux http.Handler) (http.Handler, *testutil.SyncBuffer, *prometheus.Registry) {
	t.Helper()
	var buf testutil.SyncBuffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	return Chain(mux, NoSniff, m.Handler, Log(log), Recover(log)), &buf, reg
}

func testMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "hello")
	})
	mux.HandleFunc("GET /panic", func(w http.ResponseWriter, r *http.Request) {
		panic("boom")
	})
	mux.HandleFunc("GET /late-panic", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		panic("late boom")
	})
	return mux
}

func TestRecoverAnswers500JSON(t *testing.T) {
	h, logs, _ := stack(t, testMux())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/panic", nil))

	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500", rec.Code)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if got, want := strings.TrimSpace(rec.Body.String()), `{"error":{"code":500,"message":"internal error"}}`; got != want {
		t.Errorf("body = %s, want %s", got, want)
	}
	out := logs.String()
	for _, want := range []string{"panic serving request", "panic=boom", "stack=", "status=500", "path=/panic"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

func TestRecoverAfterHeaderAbortsConnection(t *testing.T) {
	h, logs, _ := stack(t, testMux())
	srv := httptest.NewServer(h)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/late-panic")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Fatal("response after a late panic was read cleanly; want it broken")
	}
	if !strings.Contains(logs.String(), "late boom") {
		t.Errorf("panic not logged:\n%s", logs.String())
	}
}

func TestLogLine(t *testing.T) {
	h, logs, _ := stack(t, testMux())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/ok/42", nil))

	if rec.Code != http.StatusOK || rec.Body.String() != "hello" {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one log line, got %d:\n%s", len(lines), logs.String())
	}
	for _, want := range []string{"msg=request", "method=GET", "path=/ok/42", `route="GET /ok/{id}"`, "status=200", "duration=", "bytes=5"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("log line lacks %q: %s", want, lines[0])
		}
	}
}

func TestMetricsExposed(t *testing.T) {
	h, _, reg := stack(t, testMux())
	for _, p := range []string{"/ok/1", "/ok/2", "/panic", "/no/such/path"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
	}

	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`http_requests_total{method="GET",route="GET /ok/{id}",status="200"} 2`,
		`http_requests_total{method="GET",route="GET /panic",status="500"} 1`,
		`http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`http_request_duration_seconds_count{method="GET",route="GET /ok/{id}",status="200"} 2`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(body, "/ok/1") || strings.Contains(body, "/no/such/path") {
		t.Error("raw paths leaked into metric labels")
	}
}

func TestSetRouteFromNestedHandler(t *testing.T) {
	inner := http.NewServeMux()
	inner.HandleFunc("GET /api/things/{id}", func(w http.ResponseWriter, r *http.Request) {
		SetRoute(r.Context(), r.Pattern)
	})
	outer := http.NewServeMux()
	// The copy made by WithContext hides the inner pattern from the outer
	// request; SetRoute carries it out.
	outer.Handle("/api/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner.ServeHTTP(w, r.WithContext(r.Context()))
	}))
	h, logs, reg := stack(t, outer)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/things/7", nil))

	if !strings.Contains(logs.String(), `route="GET /api/things/{id}"`) {
		t.Errorf("log lacks the inner route:\n%s", logs.String())
	}
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `route="GET /api/things/{id}"`) {
		t.Error("metrics lack the inner route")
	}
}

func TestMethodLabelBounded(t *testing.T) {
	if got := method("BREW"); got != "OTHER" {
		t.Errorf("method(BREW) = %q", got)
	}
	if got := method("PATCH"); got != "PATCH" {
		t.Errorf("method(PATCH) = %q", got)
	}
}

func TestNoSniffOnEveryAnswer(t *testing.T) {
	h, _, _ := stack(t, testMux())
	for path, status := range map[string]int{"/ok/1": 200, "/panic": 500, "/no/such/path": 404} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != status {
			t.Errorf("%s: status %d, want %d", path, rec.Code, status)
		}
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q, want nosniff", path, got)
		}
	}
}
