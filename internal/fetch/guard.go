package fetch

import (
	"errors"
	"net/netip"
	"syscall"

	"code.dny.dev/ssrf"
)

// ErrRefused is returned by a Guard for an address that may not be dialled.
var ErrRefused = errors.New("fetch: destination address refused")

// Guard decides whether a resolved address may be dialled; a non-nil error
// refuses it.
type Guard func(netip.AddrPort) error

// publicGuard returns the default Guard: any port, and only addresses
// outside the special-purpose registries of IPv4 and IPv6 (loopback,
// private, shared CGNAT, link-local including cloud metadata, multicast,
// unspecified, reserved, documentation), every IPv6 address outside global
// unicast (so unique-local fc00::/7 and IPv4-mapped forms too).
func publicGuard() Guard {
	g := ssrf.New(ssrf.WithAnyPort())
	return func(ap netip.AddrPort) error {
		if err := g.SafeAddrPort(ap); err != nil {
			return errors.Join(ErrRefused, err)
		}
		return nil
	}
}

// Public reports whether the default guard lets ap be dialled: nil when it
// does, an error wrapping ErrRefused when it does not.
func Public(ap netip.AddrPort) error { return publicGuard()(ap) }

// control adapts g to net.Dialer.Control, which sees every address the
// dialer is about to connect to, after resolution.
func (g Guard) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return ErrRefused
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return errors.Join(ErrRefused, err)
	}
	return g(ap)
}
