package ratelimit

import "net/netip"

// AddressKey is the key a client address is counted under: an IPv4
// address as it is, an IPv6 address by its /64 network, which one client
// usually holds whole and could otherwise walk through for a fresh
// budget at each request. Anything else is its own key.
func AddressKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	switch {
	case ip.Is4():
		return addr
	case ip.Is4In6():
		return ip.Unmap().String()
	}
	p, err := ip.WithZone("").Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}
