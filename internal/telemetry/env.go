package telemetry

import (
	"fmt"
	"net/url"
	"strings"
)

// Standard OpenTelemetry environment variables read through the server's
// environment; the SDK reads the others (headers, timeouts, batching,
// sampler, resource attributes) from the process environment itself.
const (
	envSDKDisabled    = "OTEL_SDK_DISABLED"
	envTracesExporter = "OTEL_TRACES_EXPORTER"
	envEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	envTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	envProtocol       = "OTEL_EXPORTER_OTLP_PROTOCOL"
	envTracesProtocol = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	envServiceName    = "OTEL_SERVICE_NAME"
)

// OTLP transports.
const (
	protocolHTTP = "http/protobuf"
	protocolGRPC = "grpc"
)

// exportSettings say where and how spans are exported.
type exportSettings struct {
	// endpoint is the URL spans are sent to: for HTTP the full URL of
	// the traces path, for gRPC the collector's address.
	endpoint string
	protocol string
}

// readExport reads the export settings from getenv. It returns false
// when tracing is off: no endpoint is set, OTEL_TRACES_EXPORTER is
// "none", or OTEL_SDK_DISABLED is "true". A setting it cannot follow is
// an error naming the variable.
func readExport(getenv func(string) string) (exportSettings, bool, error) {
	if strings.EqualFold(strings.TrimSpace(getenv(envSDKDisabled)), "true") {
		return exportSettings{}, false, nil
	}
	switch e := strings.TrimSpace(getenv(envTracesExporter)); e {
	case "", "otlp":
	case "none":
		return exportSettings{}, false, nil
	default:
		return exportSettings{}, false, fmt.Errorf("%s: %q is not supported: use otlp or none", envTracesExporter, e)
	}
	var s exportSettings
	name := envTracesProtocol
	s.protocol = strings.TrimSpace(getenv(envTracesProtocol))
	if s.protocol == "" {
		name, s.protocol = envProtocol, strings.TrimSpace(getenv(envProtocol))
	}
	switch s.protocol {
	case "":
		s.protocol = protocolHTTP
	case protocolHTTP, protocolGRPC:
	default:
		return exportSettings{}, false, fmt.Errorf("%s: %q is not supported: use http/protobuf or grpc", name, s.protocol)
	}
	name, s.endpoint = envTracesEndpoint, strings.TrimSpace(getenv(envTracesEndpoint))
	perSignal := s.endpoint != ""
	if !perSignal {
		name, s.endpoint = envEndpoint, strings.TrimSpace(getenv(envEndpoint))
	}
	if s.endpoint == "" {
		return exportSettings{}, false, nil
	}
	u, err := url.Parse(s.endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return exportSettings{}, false, fmt.Errorf("%s: %q is not an http:// or https:// URL", name, s.endpoint)
	}
	// The signal-independent endpoint of OTLP over HTTP is a base URL
	// that each signal adds its path to; the traces endpoint is used as
	// given, as is any endpoint of gRPC.
	if !perSignal && s.protocol == protocolHTTP {
		s.endpoint = strings.TrimSuffix(s.endpoint, "/") + "/v1/traces"
	}
	return s, true, nil
}
