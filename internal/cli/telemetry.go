package cli

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/telemetry"
)

// startTracing starts OpenTelemetry tracing as the OTEL_* environment
// says (off unless it names an OTLP endpoint) and returns it with the
// function that flushes it on shutdown.
func startTracing(ctx context.Context, env Env, version string, log *slog.Logger) (*telemetry.Tracing, func(), error) {
	t, err := telemetry.NewTracing(ctx, telemetry.Config{Getenv: env.Getenv, Version: version})
	if err != nil {
		return nil, nil, usageError{err: err}
	}
	if t.Enabled() {
		log.InfoContext(ctx, "tracing: spans exported over OTLP")
	}
	flush := func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
		defer cancel()
		if err := t.Shutdown(sctx); err != nil {
			log.Warn("tracing: spans not all exported", "err", err)
		}
	}
	return t, flush, nil
}

// queueMetrics returns the collectors of the job queue and the content
// events for /metrics, when the store can count them.
func queueMetrics(st quire.Store, q *jobs.Queue, log *slog.Logger) []prometheus.Collector {
	b, ok := st.(telemetry.Backlog)
	if !ok {
		return nil
	}
	return []prometheus.Collector{telemetry.NewQueueMetrics(b, q, telemetry.QueueMetricsConfig{Logger: log})}
}
