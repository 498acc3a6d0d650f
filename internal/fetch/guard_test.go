package fetch_test

import (
	"errors"
	"net/netip"
	"testing"

	"quire/internal/fetch"
)

func TestPublicRefusesSpecialAddresses(t *testing.T) {
	for _, a := range []string{
		"127.0.0.1", "127.1.2.3", "::1", // loopback
		"10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", // RFC 1918
		"fc00::1", "fd12:3456::1", // unique local
		"169.254.169.254", "169.254.0.1", "fe80::1", // link-local, cloud metadata
		"100.64.0.1", "100.127.255.254", // CGNAT
		"0.0.0.0", "::", // unspecified
		"224.0.0.1", "239.255.255.250", "ff02::1", // multicast
		"255.255.255.255", "240.0.0.1", // broadcast, reserved
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", // IPv4-mapped
		"64:ff9b::7f00:1",          // NAT64 of loopback
		"192.0.2.1", "2001:db8::1", // documentation
	} {
		err := fetch.Public(netip.AddrPortFrom(netip.MustParseAddr(a), 80))
		if !errors.Is(err, fetch.ErrRefused) {
			t.Errorf("%s: got %v, want refused", a, err)
		}
	}
	for _, a := range []string{"93.184.215.14", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"} {
		for _, port := range []uint16{80, 443, 8080} {
			if err := fetch.Public(netip.AddrPortFrom(netip.MustParseAddr(a), port)); err != nil {
				t.Errorf("%s:%d: refused: %v", a, port, err)
			}
		}
	}
}
