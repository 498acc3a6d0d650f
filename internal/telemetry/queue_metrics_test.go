package telemetry_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/store/sqlstore"
	"quire/internal/store/storetest"
	"quire/internal/telemetry"
	"quire/internal/testutil"
)

// patience bounds every wait for the queue.
const patience = 30 * time.Second

// Jobs of the test.
type (
	failArgs  struct{ N int }
	blockArgs struct{}
	countArgs struct{ N int }
)

func (failArgs) Kind() string  { return "test_fail" }
func (blockArgs) Kind() string { return "test_block" }
func (countArgs) Kind() string { return "test_count" }

// scrape serves reg's /metrics over HTTP, as the server does, and reads
// it back.
func scrape(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics = %d", resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parsing /metrics: %v", err)
	}
	return fams
}

// value returns the value of the series of name with labels (given as
// name=value pairs), and whether it is there.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		if len(got) != len(labels)/2 {
			continue
		}
		for i := 0; i < len(labels); i += 2 {
			if got[labels[i]] != labels[i+1] {
				continue next
			}
		}
		switch {
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		}
	}
	return 0, false
}

// series is one expected series and its value.
type series struct {
	name   string
	labels []string
	want   float64
}

func check(t *testing.T, fams map[string]*dto.MetricFamily, want []series) {
	t.Helper()
	for _, s := range want {
		got, ok := value(fams, s.name, s.labels...)
		if !ok {
			t.Errorf("%s%v missing", s.name, s.labels)
		} else if got != s.want {
			t.Errorf("%s%v = %v, want %v", s.name, s.labels, got, s.want)
		}
	}
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		ok, err := cond()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, patience)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// countOf returns the count of one (kind, state) among counts.
func countOf(counts []sqlstore.JobCount, kind, state string) int {
	for _, c := range counts {
		if c.Kind == kind && c.State == state {
			return c.Jobs
		}
	}
	return 0
}

func TestQueueMetrics(t *testing.T) {
	for name, engine := range storetest.Replicas() {
		t.Run(name, func(t *testing.T) {
			open := engine(t)
			st := open()
			ctx := t.Context()
			q, err := jobs.New(st, jobs.Config{Workers: 1, PollInterval: 20 * time.Millisecond,
				Backoff: func(int) time.Duration { return time.Hour }, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = q.Stop(context.Background()) })
			release, started := make(chan struct{}), make(chan struct{}, 1)
			jobs.Register(q, func(context.Context, failArgs) error { return errors.New("boom") })
			jobs.Register(q, func(ctx context.Context, _ blockArgs) error {
				started <- struct{}{}
				select {
				case <-release:
				case <-ctx.Done():
				}
				return nil
			})
			jobs.Register(q, func(context.Context, countArgs) error { return nil })
			if err := q.Start(ctx); err != nil {
				t.Fatal(err)
			}
			enqueue := func(args quire.JobArgs, opts quire.JobOptions) {
				t.Helper()
				if _, err := q.Enqueue(ctx, args, opts); err != nil {
					t.Fatal(err)
				}
			}

			// One job fails for good, one fails and waits an hour to retry.
			enqueue(failArgs{N: 1}, quire.JobOptions{MaxAttempts: 1})
			enqueue(failArgs{N: 2}, quire.JobOptions{MaxAttempts: 5})
			waitFor(t, "two failures recorded", func() (bool, error) {
				c, err := st.JobCounts(ctx)
				return countOf(c, "test_fail", "discarded") == 1 && countOf(c, "test_fail", "retryable") == 1, err
			})
			// The only worker is kept busy, so that the next jobs wait.
			enqueue(blockArgs{}, quire.JobOptions{})
			select {
			case <-started:
			case <-time.After(patience):
				t.Fatal("the blocking job did not start")
			}
			for i := range 3 {
				enqueue(countArgs{N: i}, quire.JobOptions{})
			}
			for i := range 2 {
				enqueue(countArgs{N: 10 + i}, quire.JobOptions{Delay: time.Hour})
			}
			// Waiting content events: two of one space, one of another.
			at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
			last := map[string]int64{}
			for i, space := range []string{"s1", "s1", "s2"} {
				ev := &quire.ContentEvent{SpaceID: space, Previous: "a", Next: "b", CreatedAt: at.Add(time.Duration(i) * 15 * time.Second)}
				if err := st.AddContentEvent(ctx, ev); err != nil {
					t.Fatal(err)
				}
				last[space] = ev.ID
			}

			now := at.Add(90 * time.Second)
			logs := &testutil.SyncBuffer{}
			reg := prometheus.NewRegistry()
			reg.MustRegister(telemetry.NewQueueMetrics(st, q, telemetry.QueueMetricsConfig{Now: func() time.Time { return now },
				Logger: slog.New(slog.NewTextHandler(logs, nil))}))
			jobsOf := func(kind, state string) []string {
				return []string{"queue", "default", "kind", kind, "state", state}
			}
			want := []series{
				{"quire_jobs", jobsOf("test_fail", "discarded"), 1},
				{"quire_jobs", jobsOf("test_fail", "retryable"), 1},
				{"quire_jobs", jobsOf("test_fail", "available"), 0},
				{"quire_jobs", jobsOf("test_block", "running"), 1},
				{"quire_jobs", jobsOf("test_count", "available"), 3},
				{"quire_jobs", jobsOf("test_count", "scheduled"), 2},
				{"quire_jobs", jobsOf("test_count", "running"), 0},
				{"quire_job_failures_total", []string{"kind", "test_fail"}, 2},
				{"quire_job_failures_total", []string{"kind", "test_count"}, 0},
				{"quire_content_events_pending", nil, 3},
				{"quire_content_events_lag_seconds", nil, 90},
			}
			check(t, scrape(t, reg), want)
			if logs.String() != "" {
				t.Errorf("warnings:\n%s", logs)
			}

			// Another replica, on its own pools and with no queue of its
			// own running, reads the same numbers from the database.
			other := prometheus.NewRegistry()
			other.MustRegister(telemetry.NewQueueMetrics(open(), idleQueue{}, telemetry.QueueMetricsConfig{Now: func() time.Time { return now }}))
			var shared []series
			for _, s := range want {
				if s.name != "quire_job_failures_total" && s.want != 0 {
					shared = append(shared, s)
				}
			}
			check(t, scrape(t, other), shared)

			// The subscribers took the events: nothing waits, no lag.
			for space, id := range last {
				if err := st.DeleteContentEvents(ctx, space, id); err != nil {
					t.Fatal(err)
				}
			}
			close(release)
			check(t, scrape(t, reg), []series{
				{"quire_content_events_pending", nil, 0},
				{"quire_content_events_lag_seconds", nil, 0},
			})

			// A database that cannot answer leaves its series out and says
			// why; the process's own counts are still reported.
			gone := open()
			_ = gone.Close()
			broken := prometheus.NewRegistry()
			broken.MustRegister(telemetry.NewQueueMetrics(gone, q, telemetry.QueueMetricsConfig{Logger: slog.New(slog.NewTextHandler(logs, nil))}))
			fams := scrape(t, broken)
			for _, name := range []string{"quire_jobs", "quire_content_events_pending", "quire_content_events_lag_seconds"} {
				if _, ok := fams[name]; ok {
					t.Errorf("%s reported from a closed database", name)
				}
			}
			check(t, fams, []series{{"quire_job_failures_total", []string{"kind", "test_fail"}, 2}})
			for _, want := range []string{"metrics: counting the jobs", "metrics: reading the content event backlog"} {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("no warning %q:\n%s", want, logs)
				}
			}
		})
	}
}

// idleQueue is a replica's queue that works no kind and saw no failure.
type idleQueue struct{}

func (idleQueue) Kinds() []string            { return nil }
func (idleQueue) Failures() map[string]int64 { return nil }
