package telemetry_test

import (
	"net/http"
	"reflect"
	"testing"

	nooptrace "go.opentelemetry.io/otel/trace/noop"

	"quire/internal/telemetry"
)

// TestTracingOff checks that without an endpoint nothing is made: the
// provider is the no-op one, and the handler, the database pools and the
// job queue are left as they are.
func TestTracingOff(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"unset":         nil,
		"exporter none": {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_TRACES_EXPORTER": "none"},
		"SDK disabled":  {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces", "OTEL_SDK_DISABLED": "true"},
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := telemetry.NewTracing(t.Context(), telemetry.Config{Getenv: func(k string) string { return env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Enabled() {
				t.Error("tracing is on")
			}
			if _, ok := tr.Provider().(nooptrace.TracerProvider); !ok {
				t.Errorf("provider %T, want the no-op one", tr.Provider())
			}
			h := http.NotFoundHandler()
			if got := tr.Handler(h); reflect.ValueOf(got).Pointer() != reflect.ValueOf(h).Pointer() {
				t.Errorf("handler wrapped: %T", got)
			}
			if tr.OpenPool() != nil {
				t.Error("the store's pools would be wrapped")
			}
			if tr.RiverPlugins() != nil {
				t.Error("the job queue would get plugins")
			}
			if err := tr.Shutdown(t.Context()); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestTracingOn(t *testing.T) {
	tr, err := telemetry.NewTracing(t.Context(), telemetry.Config{Getenv: func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Enabled() || tr.OpenPool() == nil || len(tr.RiverPlugins()) != 1 {
		t.Errorf("tracing on, but enabled=%v pools wrapped=%v plugins=%d", tr.Enabled(), tr.OpenPool() != nil, len(tr.RiverPlugins()))
	}
	if _, ok := tr.Provider().(nooptrace.TracerProvider); ok {
		t.Error("the provider is the no-op one")
	}
	// Nothing was traced: shutting down sends nothing and succeeds.
	if err := tr.Shutdown(t.Context()); err != nil {
		t.Error(err)
	}
}

func TestTracingBadSetting(t *testing.T) {
	_, err := telemetry.NewTracing(t.Context(), telemetry.Config{Getenv: func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}[k]
	}})
	if err == nil {
		t.Fatal("http/json accepted")
	}
}
