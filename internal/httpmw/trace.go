package httpmw

import (
	"net/http"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	noopmetric "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// untraced reports whether requests for path go without a span: the
// probes a load balancer or orchestrator sends every few seconds, whose
// traces would only bury the others.
func untraced(path string) bool { return path == "/healthz" || path == "/readyz" }

// Trace returns middleware that serves each request in an OpenTelemetry
// server span from tp, continuing a trace the caller propagated in W3C
// traceparent headers. The span is named by the route pattern that served
// the request ("GET /v1/spaces/{spaceId}"), never the raw path, and
// carries it as http.route; a request no pattern matched is named by its
// method alone. The health and readiness probes are not traced. Metrics
// stay Prometheus's (Metrics): the middleware records none.
func Trace(tp trace.TracerProvider) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		named := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r, slot := withRoute(r)
			defer func() { nameSpan(trace.SpanFromContext(r.Context()), r.Method, route(r, slot)) }()
			next.ServeHTTP(w, r)
		})
		return otelhttp.NewHandler(named, "http.server",
			otelhttp.WithTracerProvider(tp),
			otelhttp.WithMeterProvider(noopmetric.NewMeterProvider()),
			otelhttp.WithPropagators(propagation.TraceContext{}),
			otelhttp.WithFilter(func(r *http.Request) bool { return !untraced(r.URL.Path) }),
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return method(r.Method) }))
	}
}

// nameSpan names span after the route that served a request of method m,
// as the semantic conventions ask: "METHOD /path/{param}".
func nameSpan(span trace.Span, m, pattern string) {
	m = method(m)
	if pattern == unmatchedRoute {
		span.SetName(m)
		return
	}
	// Patterns may name their method ("GET /v1/user") or not ("/").
	path := pattern
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		path = strings.TrimLeft(pattern[i+1:], " ")
	}
	span.SetName(m + " " + path)
	span.SetAttributes(semconv.HTTPRoute(path))
}
