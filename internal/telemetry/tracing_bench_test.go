package telemetry_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"quire/internal/telemetry"
)

// BenchmarkHandler measures what a request pays for tracing: off (the
// handler as it is) and on (a server span exported in batches to a
// collector of the benchmark's own that drops what it gets).
func BenchmarkHandler(b *testing.B) {
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/spaces/{spaceId}", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("{}")) })
	for name, env := range map[string]map[string]string{
		"off": nil,
		"on":  {"OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL},
	} {
		b.Run(name, func(b *testing.B) {
			tr, err := telemetry.NewTracing(b.Context(), telemetry.Config{Getenv: func(k string) string { return env[k] }})
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = tr.Shutdown(b.Context()) }()
			h := tr.Handler(mux)
			req := httptest.NewRequest("GET", "/v1/spaces/abc", nil)
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}
