// Package fetchtest helps tests point the outbound client at servers they
// start on 127.0.0.1 while every other non-public address stays refused.
package fetchtest

import (
	"net/netip"
	"net/url"
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
