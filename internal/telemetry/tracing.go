package telemetry

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/http"

	"github.com/XSAM/otelsql"
	"github.com/riverqueue/river/rivertype"
	"github.com/riverqueue/rivercontrib/otelriver"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	noopmetric "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	nooptrace "go.opentelemetry.io/otel/trace/noop"

	"quire/internal/httpmw"
	"quire/internal/store/sqlstore"
)

// DefaultServiceName is the service.name of the spans when
// OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) names
// none.
const DefaultServiceName = "quire"

// Config configures Tracing.
type Config struct {
	// Getenv reads the environment: os.Getenv in production.
	Getenv func(string) string
	// Version is the server's version, recorded as service.version.
	Version string
}

// Tracing is the server's OpenTelemetry tracing. Off, it wraps nothing:
// Handler returns the handler given, OpenPool and RiverPlugins return
// nil, so requests, statements and jobs run exactly as without it. On,
// spans go in batches to the OTLP endpoint until Shutdown flushes them.
type Tracing struct {
	// provider is nil when tracing is off.
	provider *sdktrace.TracerProvider
}

// NewTracing starts tracing when the standard OpenTelemetry environment
// names an OTLP endpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
// OTEL_EXPORTER_OTLP_ENDPOINT), over HTTP (http/protobuf, the default)
// or gRPC as OTEL_EXPORTER_OTLP_PROTOCOL says. The SDK reads the other
// OTEL_* settings itself: OTEL_TRACES_SAMPLER and its argument, the
// exporter's headers, timeout, compression and certificates, batching
// (OTEL_BSP_*) and OTEL_RESOURCE_ATTRIBUTES. Making the exporter opens
// no connection: a collector that is down costs dropped spans, never a
// failed start.
func NewTracing(ctx context.Context, cfg Config) (*Tracing, error) {
	s, on, err := readExport(cfg.Getenv)
	if err != nil || !on {
		return &Tracing{}, err
	}
	var exp sdktrace.SpanExporter
	if s.protocol == protocolGRPC {
		exp, err = otlptracegrpc.New(ctx, otlptracegrpc.WithEndpointURL(s.endpoint))
	} else {
		exp, err = otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(s.endpoint))
	}
	if err != nil {
		return nil, fmt.Errorf("telemetry: trace exporter: %w", err)
	}
	res, err := newResource(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{provider: tp}, nil
}

// newResource describes the service: service.name (DefaultServiceName
// unless the environment names one) and service.version, the resource
// attributes of the environment, and the SDK's own.
func newResource(ctx context.Context, cfg Config) (*resource.Resource, error) {
	opts := []resource.Option{
		resource.WithSchemaURL(semconv.SchemaURL),
		resource.WithAttributes(semconv.ServiceName(DefaultServiceName), semconv.ServiceVersion(cfg.Version)),
		resource.WithFromEnv(),
		resource.WithTelemetrySDK(),
	}
	// OTEL_SERVICE_NAME wins over OTEL_RESOURCE_ATTRIBUTES.
	if name := cfg.Getenv(envServiceName); name != "" {
		opts = append(opts, resource.WithAttributes(semconv.ServiceName(name)))
	}
	return resource.New(ctx, opts...)
}

// Enabled reports whether spans are exported.
func (t *Tracing) Enabled() bool { return t.provider != nil }

// Provider returns the tracer provider: the SDK's, or a no-op one when
// tracing is off.
func (t *Tracing) Provider() trace.TracerProvider {
	if t.provider == nil {
		return nooptrace.NewTracerProvider()
	}
	return t.provider
}

// Handler returns h serving every request in a server span named by its
// route pattern (see httpmw.Trace); h itself when tracing is off.
func (t *Tracing) Handler(h http.Handler) http.Handler {
	if t.provider == nil {
		return h
	}
	return httpmw.Trace(t.provider)(h)
}

// OpenPool returns the opener of the store's connection pools that
// traces each statement run for a traced request or job (see
// sqlSpanOptions); nil when tracing is off, so the pools are database/sql's
// own.
func (t *Tracing) OpenPool() sqlstore.PoolOpener {
	if t.provider == nil {
		return nil
	}
	return func(c driver.Connector, e sqlstore.Engine) *sql.DB {
		return otelsql.OpenDB(c, sqlOptions(t.provider, e)...)
	}
}

// RiverPlugins returns the job queue's tracing: a producer span for each
// job queued, which puts the trace context in the job's metadata, and a
// consumer span for each attempt worked, linked to the span that queued
// the job (a job may run long after, so it starts a trace of its own);
// the statements of the attempt are its children. Nil when tracing is
// off.
func (t *Tracing) RiverPlugins() []rivertype.Plugin {
	if t.provider == nil {
		return nil
	}
	return []rivertype.Plugin{otelriver.NewMiddleware(&otelriver.MiddlewareConfig{
		TracerProvider:              t.provider,
		MeterProvider:               noopmetric.NewMeterProvider(),
		EnableTracePropagation:      true,
		EnableWorkSpanJobKindSuffix: true,
	})}
}

// Shutdown exports the spans still buffered and stops the exporter,
// waiting until ctx ends at most. Called after the server and the job
// queue have stopped, it sends the spans of their last requests and jobs.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t.provider == nil {
		return nil
	}
	if err := t.provider.Shutdown(ctx); err != nil {
		return fmt.Errorf("telemetry: flushing spans: %w", err)
	}
	return nil
}
