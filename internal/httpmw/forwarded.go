package httpmw

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseProxies reads a comma-separated list of trusted proxies, each an
// address (10.0.0.7, ::1) or a network (10.0.0.0/8, fd00::/8).
func ParseProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a network such as 10.0.0.0/8", part)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// ForwardedFor returns middleware that finds the client address of a
// request that reached the server through a trusted proxy (its remote
// address is in trusted): the nearest address of its X-Forwarded-For
// headers, read from the right, that is not itself a trusted proxy, or
// the farthest one when all are. Proxies append what they see, so the
// entries left of the first untrusted one are the client's to write and
// are never believed. An entry that is not an address ends the walk at
// the last proxy read. ClientAddress then answers the address found.
func ForwardedFor(trusted []netip.Prefix) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if len(trusted) == 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			remote, ok := hostAddr(r.RemoteAddr)
			if !ok || !isTrusted(trusted, remote) {
				next.ServeHTTP(w, r)
				return
			}
			client := remote
			hops := r.Header.Values("X-Forwarded-For")
		walk:
			for i := len(hops) - 1; i >= 0; i-- {
				entries := strings.Split(hops[i], ",")
				for j := len(entries) - 1; j >= 0; j-- {
					a, ok := hostAddr(strings.TrimSpace(entries[j]))
					if !ok {
						break walk
					}
					client = a
					if !isTrusted(trusted, a) {
						break walk
					}
				}
			}
			next.ServeHTTP(w, withClientAddress(r, client.String()))
		})
	}
}

// hostAddr parses an address, with or without a port.
func hostAddr(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		return netip.Addr{}, false
	}
	a, err := netip.ParseAddr(host)
	return a.Unmap(), err == nil
}

// isTrusted reports whether a is in one of the trusted networks.
func isTrusted(trusted []netip.Prefix, a netip.Addr) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
