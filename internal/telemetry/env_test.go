package telemetry

import (
	"strings"
	"testing"
)

func TestReadExport(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want exportSettings
		on   bool
		err  string
	}{
		{name: "nothing set", env: nil},
		{name: "base endpoint over HTTP", env: map[string]string{envEndpoint: "http://127.0.0.1:4318"},
			want: exportSettings{endpoint: "http://127.0.0.1:4318/v1/traces", protocol: protocolHTTP}, on: true},
		{name: "base endpoint with a path", env: map[string]string{envEndpoint: "https://otel.example.com/collect/"},
			want: exportSettings{endpoint: "https://otel.example.com/collect/v1/traces", protocol: protocolHTTP}, on: true},
		{name: "traces endpoint as given", env: map[string]string{envEndpoint: "http://a:4318", envTracesEndpoint: "http://b:4318/custom"},
			want: exportSettings{endpoint: "http://b:4318/custom", protocol: protocolHTTP}, on: true},
		{name: "gRPC takes the base endpoint as given", env: map[string]string{envEndpoint: "http://127.0.0.1:4317", envProtocol: "grpc"},
			want: exportSettings{endpoint: "http://127.0.0.1:4317", protocol: protocolGRPC}, on: true},
		{name: "the traces protocol wins", env: map[string]string{envEndpoint: "http://c:4318", envProtocol: "grpc", envTracesProtocol: "http/protobuf"},
			want: exportSettings{endpoint: "http://c:4318/v1/traces", protocol: protocolHTTP}, on: true},
		{name: "exporter none", env: map[string]string{envEndpoint: "http://127.0.0.1:4318", envTracesExporter: "none"}},
		{name: "SDK disabled", env: map[string]string{envEndpoint: "http://127.0.0.1:4318", envSDKDisabled: "true"}},
		{name: "unknown exporter", env: map[string]string{envEndpoint: "http://x", envTracesExporter: "zipkin"}, err: envTracesExporter},
		{name: "JSON protocol", env: map[string]string{envEndpoint: "http://x", envProtocol: "http/json"}, err: envProtocol},
		{name: "endpoint without a scheme", env: map[string]string{envEndpoint: "collector:4318"}, err: envEndpoint},
		{name: "traces endpoint not a URL", env: map[string]string{envTracesEndpoint: "ftp://x/"}, err: envTracesEndpoint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, on, err := readExport(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err+":") {
					t.Fatalf("error %v, want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if on != tc.on || got != tc.want {
				t.Errorf("got %+v on=%v, want %+v on=%v", got, on, tc.want, tc.on)
			}
		})
	}
}
