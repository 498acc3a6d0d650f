package telemetry

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"quire/internal/store/sqlstore"
)

// Backlog is what the queue metrics read from the shared database
// (*sqlstore.Store has it).
type Backlog interface {
	// JobCounts counts the jobs by queue, kind and state.
	JobCounts(ctx context.Context) ([]sqlstore.JobCount, error)
	// ContentBacklog returns the content events waiting for the
	// subscribers.
	ContentBacklog(ctx context.Context) (sqlstore.ContentBacklog, error)
}

// JobFailures is what the queue metrics read of this process's job queue
// (*jobs.Queue has it).
type JobFailures interface {
	// Kinds lists the kinds of job the process works.
	Kinds() []string
	// Failures counts the failed attempts of each kind.
	Failures() map[string]int64
}

// DefaultScrapeTimeout bounds the database reads of one scrape.
const DefaultScrapeTimeout = 2 * time.Second

// QueueMetricsConfig configures QueueMetrics; zero fields take defaults.
type QueueMetricsConfig struct {
	// Timeout bounds the database reads of one scrape
	// (DefaultScrapeTimeout).
	Timeout time.Duration
	// Now is the clock the lag is measured with (time.Now).
	Now func() time.Time
	// Logger receives a warning when a read fails (slog.Default()).
	Logger *slog.Logger
}

// QueueMetrics is a Prometheus collector of the background work: the
// jobs in the queue by state and the content events waiting, both read
// from the shared database at each scrape (so every replica reports the
// same, and nothing is read between scrapes), and the failed attempts of
// this process's jobs. A read that fails or times out leaves its series
// out of that scrape and is logged; the others are still reported.
type QueueMetrics struct {
	backlog Backlog
	jobs    JobFailures
	cfg     QueueMetricsConfig

	jobCount, failures, events, lag *prometheus.Desc
}

// NewQueueMetrics returns the collector over backlog and jobs; register
// it on the /metrics registry.
func NewQueueMetrics(backlog Backlog, jobs JobFailures, cfg QueueMetricsConfig) *QueueMetrics {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultScrapeTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &QueueMetrics{
		backlog: backlog, jobs: jobs, cfg: cfg,
		jobCount: prometheus.NewDesc("quire_jobs",
			"Jobs in the shared job queue by queue, kind and state: waiting (available, scheduled, retryable), running, or failed for good (discarded, kept a week).",
			[]string{"queue", "kind", "state"}, nil),
		failures: prometheus.NewDesc("quire_job_failures_total",
			"Attempts of jobs that failed (returned an error or panicked) in this process, by kind.",
			[]string{"kind"}, nil),
		events: prometheus.NewDesc("quire_content_events_pending",
			"Content events recorded and not yet handed to every subscriber (search index, integrations, notifications).",
			nil, nil),
		lag: prometheus.NewDesc("quire_content_events_lag_seconds",
			"Age of the oldest content event not yet handed to every subscriber; 0 when none waits.",
			nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (m *QueueMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.jobCount, m.failures, m.events, m.lag} {
		ch <- d
	}
}

// Collect implements prometheus.Collector: it reads the database, within
// the timeout.
func (m *QueueMetrics) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.Timeout)
	defer cancel()
	kinds := m.jobs.Kinds()
	for kind, n := range m.failureCounts(kinds) {
		ch <- prometheus.MustNewConstMetric(m.failures, prometheus.CounterValue, float64(n), kind)
	}
	if counts, err := m.backlog.JobCounts(ctx); err != nil {
		m.cfg.Logger.Warn("metrics: counting the jobs", "err", err)
	} else {
		for key, n := range jobGauge(counts, kinds) {
			ch <- prometheus.MustNewConstMetric(m.jobCount, prometheus.GaugeValue, float64(n), key.queue, key.kind, key.state)
		}
	}
	b, err := m.backlog.ContentBacklog(ctx)
	if err != nil {
		m.cfg.Logger.Warn("metrics: reading the content event backlog", "err", err)
		return
	}
	ch <- prometheus.MustNewConstMetric(m.events, prometheus.GaugeValue, float64(b.Events))
	lag := 0.0
	if !b.Oldest.IsZero() {
		lag = max(0, m.cfg.Now().Sub(b.Oldest).Seconds())
	}
	ch <- prometheus.MustNewConstMetric(m.lag, prometheus.GaugeValue, lag)
}

// failureCounts returns the failed attempts by kind, with a zero for each
// kind in kinds that has none, so that the counter exists from the start.
func (m *QueueMetrics) failureCounts(kinds []string) map[string]int64 {
	out := m.jobs.Failures()
	if out == nil {
		out = map[string]int64{}
	}
	for _, k := range kinds {
		out[k] += 0
	}
	return out
}

// jobKey is one series of the job gauge.
type jobKey struct{ queue, kind, state string }

// jobGauge returns the job counts by series, with a zero for every state
// of each kind in kinds (in River's default queue, the one the server
// uses) that holds no job: a series that vanished when its queue drained
// would look like a stopped scrape.
func jobGauge(counts []sqlstore.JobCount, kinds []string) map[jobKey]int {
	states := []string{"available", "scheduled", "retryable", "running", "discarded"}
	out := make(map[jobKey]int, len(counts)+len(kinds)*len(states))
	for _, k := range kinds {
		for _, s := range states {
			out[jobKey{river.QueueDefault, k, s}] = 0
		}
	}
	for _, c := range counts {
		out[jobKey{c.Queue, c.Kind, c.State}] += c.Jobs
	}
	return out
}
