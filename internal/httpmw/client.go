package httpmw

import (
	"net"
	"net/http"
)

// ClientAddress is the address a request came from: the host of its
// remote address. Forwarding headers are not trusted, since any client
// can send them.
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
