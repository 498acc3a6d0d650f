// Package telemetry is what the server tells operators about itself
// beyond its logs: OpenTelemetry traces of requests, jobs and database
// statements, exported over OTLP only when the standard OTEL_* environment
// names an endpoint (off, nothing is wrapped and nothing is sent), and
// the Prometheus collector of the job queue and the content events, read
// from the shared database when /metrics is scraped.
package telemetry
