package cli

import (
	"database/sql"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// tracedEngines are the databases the tracing tests serve on: SQLite in
// the data directory, and PostgreSQL when the tests have one.
// Each adds its settings to vars and returns a pool of the test's own on
// the database.
func tracedEngines() map[string]func(t *testing.T, dir string, vars map[string]string) func() *sql.DB {
	return map[string]func(t *testing.T, dir string, vars map[string]string) func() *sql.DB{
		"sqlite": func(t *testing.T, dir string, _ map[string]string) func() *sql.DB {
			return func() *sql.DB { return openTestDB(t, "sqlite", filepath.Join(dir, "quire.db")+"?mode=ro") }
		},
		"postgres": func(t *testing.T, _ string, vars map[string]string) func() *sql.DB {
			url := postgresURL(t)
			vars["QUIRE_DATABASE_URL"] = url
			return func() *sql.DB { return openTestDB(t, "pgx", url) }
		},
	}
}

// openTestDB opens a pool of the test's own on the server's database.
func openTestDB(t *testing.T, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// waitJobsDone waits until the server has queued jobs of kind and
// completed them all.
func waitJobsDone(t *testing.T, db *sql.DB, kind string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		var all, done int
		err := db.QueryRowContext(t.Context(), `SELECT COUNT(*), COUNT(finalized_at) FROM river_job
			WHERE kind = '`+kind+`' AND state IN ('available', 'scheduled', 'retryable', 'running', 'completed')`).Scan(&all, &done)
		if err != nil {
			t.Fatalf("reading the jobs: %v", err)
		}
		if all > 0 && all == done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d %s jobs done after %v", done, all, kind, patience)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// request sends a request with the bearer token and extra headers, and
// returns the status.
func (s *server) request(t *testing.T, method, path, token string, header map[string]string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, s.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeTraces serves requests with OTEL_EXPORTER_OTLP_ENDPOINT set
// to a receiver of the test's own and checks what arrives: server spans
// named by route and continuing the caller's trace, the database
// statements beneath them, the job a request queued linked to it, and
// the spans of the last request, flushed on shutdown.
func TestServeTraces(t *testing.T) {
	// Spans leave only when the server flushes them on its way out.
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "3600000")
	for name, engine := range tracedEngines() {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			rec := newOTLPReceiver(t)
			vars := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": rec.url}
			db := engine(t, dir, vars)
			s := startServe(t, env(vars), "--addr", "127.0.0.1:0", "--data", dir)
			raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
			if err != nil {
				t.Fatal(err)
			}
			token := strings.TrimSpace(string(raw))

			const callerTrace, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
			if code := s.request(t, "GET", "/v1/user", token, map[string]string{
				"traceparent": "00-" + callerTrace + "-" + callerSpan + "-01"}); code != 200 {
				t.Fatalf("/v1/user = %d", code)
			}
			if code, _ := s.get(t, "/healthz", ""); code != 200 {
				t.Fatalf("/healthz = %d", code)
			}
			_, orgs := s.call(t, "GET", "/v1/orgs", token, nil)
			org := orgs["items"].([]any)[0].(map[string]any)["id"].(string)
			code, sp := s.call(t, "POST", "/v1/orgs/"+org+"/spaces", token, map[string]any{"title": "Traced"})
			if code != 201 {
				t.Fatalf("create space: %d %v", code, sp)
			}
			// Duplicating a space queues the job handing its content
			// events to the subscribers.
			code, dup := s.call(t, "POST", "/v1/spaces/"+sp["id"].(string)+"/duplicate", token, nil)
			if code != 201 {
				t.Fatalf("duplicate space: %d %v", code, dup)
			}
			waitJobsDone(t, db(), "content_events")
			if code := s.request(t, "GET", "/v1/spaces/"+dup["id"].(string), token, nil); code != 200 {
				t.Fatalf("read space: %d", code)
			}
			if n, _ := rec.received(); n != 0 {
				t.Fatalf("%d exports before shutdown, with an hour's delay", n)
			}
			if code := s.stop(t); code != 0 {
				t.Fatalf("serve exited with %d:\n%s", code, s.stderr)
			}

			_, spans := rec.received()
			byID := map[string]*receivedSpan{}
			for _, sp := range spans {
				byID[spanID(sp.SpanId)] = sp
			}
			find := func(name string) *receivedSpan {
				t.Helper()
				for _, sp := range spans {
					if sp.Name == name {
						return sp
					}
				}
				var names []string
				for _, sp := range spans {
					names = append(names, sp.Name)
				}
				t.Fatalf("no span %q among %q", name, names)
				return nil
			}
			// under reports whether sp descends from ancestor.
			under := func(sp, ancestor *receivedSpan) bool {
				for sp != nil && len(sp.ParentSpanId) > 0 {
					if spanID(sp.ParentSpanId) == spanID(ancestor.SpanId) {
						return true
					}
					sp = byID[spanID(sp.ParentSpanId)]
				}
				return false
			}
			system := map[string]string{"sqlite": "sqlite", "postgres": "postgresql"}[name]
			// statementsUnder returns the database spans directly beneath
			// parent.
			statementsUnder := func(parent *receivedSpan) []*receivedSpan {
				var out []*receivedSpan
				for _, sp := range spans {
					if spanID(sp.ParentSpanId) == spanID(parent.SpanId) && attr(sp.Attributes, "db.system.name") == system {
						out = append(out, sp)
					}
				}
				return out
			}

			user := find("GET /v1/user")
			if user.Kind != tracepb.Span_SPAN_KIND_SERVER || attr(user.Attributes, "http.route") != "/v1/user" || user.service != "quire" {
				t.Errorf("GET /v1/user: kind %v, route %q, service %q", user.Kind, attr(user.Attributes, "http.route"), user.service)
			}
			if spanID(user.TraceId) != callerTrace || spanID(user.ParentSpanId) != callerSpan {
				t.Errorf("GET /v1/user in trace %x under %x, not the caller's", user.TraceId, user.ParentSpanId)
			}
			for _, sp := range spans {
				if strings.Contains(sp.Name, "healthz") || strings.Contains(sp.Name, "/v1/user/") {
					t.Errorf("span %q: probes are not traced, raw paths never name spans", sp.Name)
				}
				if attr(sp.Attributes, "db.system.name") != "" && len(sp.ParentSpanId) == 0 {
					t.Errorf("database span %q outside any request or job", sp.Name)
				}
			}

			dupSpan := find("POST /v1/spaces/{spaceId}/duplicate")
			if len(statementsUnder(dupSpan)) == 0 {
				t.Errorf("no %s statement beneath %q", system, dupSpan.Name)
			}
			insert := find("river.insert_many")
			if !under(insert, dupSpan) {
				t.Errorf("the job was not queued within the request's span")
			}
			work := find("river.work/content_events")
			if work.Kind != tracepb.Span_SPAN_KIND_CONSUMER {
				t.Errorf("job span kind %v", work.Kind)
			}
			linked := false
			for _, l := range work.Links {
				linked = linked || (spanID(l.TraceId) == spanID(dupSpan.TraceId) && spanID(l.SpanId) == spanID(insert.SpanId))
			}
			if !linked {
				t.Errorf("the job's span is not linked to the request that queued it: links %v", work.Links)
			}
			if len(statementsUnder(work)) == 0 {
				t.Errorf("no %s statement beneath the job's span", system)
			}
			// The last request's spans were exported by the flush on
			// shutdown.
			last := find("GET /v1/spaces/{spaceId}")
			if len(statementsUnder(last)) == 0 {
				t.Errorf("no statement beneath the last request")
			}
		})
	}
}

// TestServeTracesOff points the endpoint at a receiver but turns the
// exporter off: nothing is sent.
func TestServeTracesOff(t *testing.T) {
	rec := newOTLPReceiver(t)
	dir := filepath.Join(t.TempDir(), "data")
	s := startServe(t, env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": rec.url, "OTEL_TRACES_EXPORTER": "none"}),
		"--addr", "127.0.0.1:0", "--data", dir)
	raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
	if err != nil {
		t.Fatal(err)
	}
	if code := s.request(t, "GET", "/v1/user", strings.TrimSpace(string(raw)), nil); code != 200 {
		t.Fatalf("/v1/user = %d", code)
	}
	if code := s.stop(t); code != 0 {
		t.Fatalf("serve exited with %d:\n%s", code, s.stderr)
	}
	if n, spans := rec.received(); n != 0 || len(spans) != 0 {
		t.Errorf("%d exports, %d spans with the exporter off", n, len(spans))
	}
	if strings.Contains(s.stderr.String(), "tracing") {
		t.Errorf("tracing reported on:\n%s", s.stderr)
	}
}

func TestServeTracesBadSetting(t *testing.T) {
	code, _, stderr := runCmd(t, env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}),
		"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "OTEL_EXPORTER_OTLP_ENDPOINT") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}

// TestServeQueueMetrics checks that /metrics reports the job queue and
// the content events from the server's database, on each engine.
func TestServeQueueMetrics(t *testing.T) {
	for name, engine := range tracedEngines() {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			vars := map[string]string{"QUIRE_METRICS_ADDR": "127.0.0.1:0"}
			engine(t, dir, vars)
			s := startServe(t, env(vars), "--addr", "127.0.0.1:0", "--data", dir)
			m := regexp.MustCompile(`msg="metrics listening" addr=(\S+)`).FindStringSubmatch(s.stderr.String())
			if m == nil {
				t.Fatalf("no metrics listening line:\n%s", s.stderr)
			}
			code, body := (&server{url: "http://" + m[1]}).get(t, "/metrics", "")
			if code != 200 {
				t.Fatalf("/metrics = %d", code)
			}
			for _, want := range []string{
				`quire_jobs{kind="content_events",queue="default",state="available"} `,
				`quire_jobs{kind="content_events",queue="default",state="discarded"} `,
				`quire_job_failures_total{kind="content_events"} 0`,
				"quire_content_events_pending ",
				"quire_content_events_lag_seconds ",
			} {
				if !strings.Contains(body, want) {
					t.Errorf("/metrics lacks %s", want)
				}
			}
			if strings.Contains(s.stderr.String(), "metrics: ") {
				t.Errorf("scrape warnings:\n%s", s.stderr)
			}
		})
	}
}
