// Package fetchtest helps tests point the outbound client at servers they
// start on 127.0.0.1 while every other non-public address stays refused.
package fetchtest

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync/atomic"
	"testing"

	"quire/internal/fetch"
)

// Addr is the address the test server at rawURL listens on.
func Addr(t testing.TB, rawURL string) netip.AddrPort {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	ap, err := netip.ParseAddrPort(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	return ap
}

// Only is a guard that lets allowed through and judges every other
// address as the default guard does.
func Only(allowed netip.AddrPort) fetch.Guard {
	return func(ap netip.AddrPort) error {
		if ap == allowed {
			return nil
		}
		return fetch.Public(ap)
	}
}

// Server is a test server on 127.0.0.1 that counts the requests it gets.
type Server struct {
	*httptest.Server
	// Hits is the number of requests served so far.
	Hits atomic.Int64
}

// Serve starts a Server answering with h, closed when the test ends.
func Serve(t testing.TB, h http.HandlerFunc) *Server {
	t.Helper()
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}
