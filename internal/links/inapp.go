package links

import (
	"net/url"
	"strings"
)

// inApp tells URLs into the server's own app or API apart.
type inApp struct {
	prefixes []*url.URL
}

// newInApp reads the base URLs; those that do not parse as absolute
// URLs are left out.
func newInApp(bases []string) inApp {
	var out inApp
	for _, b := range bases {
		u, err := url.Parse(b)
		if err != nil || u.Scheme == "" || u.Host == "" {
			continue
		}
		u.Path = strings.TrimRight(u.Path, "/")
		out.prefixes = append(out.prefixes, u)
	}
	return out
}

// match reports whether raw is one of the base URLs or below one: same
// scheme and host (case aside, default ports aside), and a path that is
// the base's path or continues it after a "/".
func (a inApp) match(raw string) bool {
	if len(a.prefixes) == 0 {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return false
	}
	for _, p := range a.prefixes {
		if !strings.EqualFold(u.Scheme, p.Scheme) || hostPort(u) != hostPort(p) {
			continue
		}
		if u.Path == p.Path || strings.HasPrefix(u.Path, p.Path+"/") || p.Path == "" {
			return true
		}
	}
	return false
}

// hostPort is a URL's host in lower case with its port, the scheme's
// default port left out.
func hostPort(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	switch {
	case port == "",
		port == "80" && strings.EqualFold(u.Scheme, "http"),
		port == "443" && strings.EqualFold(u.Scheme, "https"):
		return host
	}
	return host + ":" + port
}
