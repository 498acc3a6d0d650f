package httpmw

import (
	"context"
	"net"
	"net/http"
)

// clientKey is the context key of the client address ForwardedFor found.
type clientKey struct{}

// ClientAddress is the address a request came from: the one ForwardedFor
// took from X-Forwarded-For when the request came through a trusted
// proxy, else the host of its remote address. Forwarding headers are not
// trusted otherwise, since any client can send them.
func ClientAddress(r *http.Request) string {
	if a, ok := r.Context().Value(clientKey{}).(string); ok {
		return a
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// withClientAddress returns r carrying its client address.
func withClientAddress(r *http.Request, addr string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), clientKey{}, addr))
}
