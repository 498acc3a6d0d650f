package gitremote

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// scheme is the protocol of a remote.
type scheme string

// The protocols a remote may use.
const (
	schemeHTTPS scheme = "https"
	schemeHTTP  scheme = "http"
	schemeSSH   scheme = "ssh"
	schemeFile  scheme = "file"
)

// defaultSSHPort is the port of ssh remotes that name none.
const defaultSSHPort = 22

// scpLike matches [user@]host:path, the short form of an ssh remote.
var scpLike = regexp.MustCompile(`^(?:([^@/:]+)@)?([A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]):([^/].*|/.+)$`)

// target is a parsed remote: where to connect, without the credentials,
// which are kept apart.
type target struct {
	scheme   scheme
	endpoint *transport.Endpoint // no user information
	user     string
	password string
	redacted string    // the URL without user information
	began    time.Time // when the operation on it began
}

// parseURL parses a remote URL; ok is false for anything this package does
// not reach.
func parseURL(raw string) (t *target, ok bool) {
	if !strings.Contains(raw, "://") {
		m := scpLike.FindStringSubmatch(raw)
		if m == nil {
			return nil, false
		}
		if first, _, _ := strings.Cut(m[3], "/"); strings.Contains(first, "@") {
			// user:password@host/path, which is not scp-like but a URL
			// without its scheme: refused, its password never echoed.
			return nil, false
		}
		host := strings.Trim(m[2], "[]")
		return &target{
			scheme:   schemeSSH,
			endpoint: &transport.Endpoint{Protocol: string(schemeSSH), Host: host, Port: defaultSSHPort, Path: m[3]},
			user:     m[1],
			redacted: m[2] + ":" + m[3],
		}, true
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.Fragment != "" {
		return nil, false
	}
	t = &target{scheme: scheme(strings.ToLower(u.Scheme))}
	if u.User != nil {
		t.user = u.User.Username()
		t.password, _ = u.User.Password()
		u.User = nil
	}
	t.redacted = u.String()
	port := 0
	if p := u.Port(); p != "" {
		port, err = strconv.Atoi(p)
		if err != nil || port <= 0 || port > 65535 {
			return nil, false
		}
	}
	host := u.Hostname()
	switch t.scheme {
	case schemeHTTP, schemeHTTPS:
		if host == "" {
			return nil, false
		}
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	case schemeSSH:
		if host == "" || u.Path == "" {
			return nil, false
		}
		if port == 0 {
			port = defaultSSHPort
		}
	case schemeFile:
		if host != "" && host != "localhost" || u.Path == "" || t.user != "" {
			return nil, false
		}
		host = ""
	default:
		return nil, false
	}
	path := u.Path
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	t.endpoint = &transport.Endpoint{Protocol: string(t.scheme), Host: host, Port: port, Path: path}
	return t, true
}

// Redact returns the URL without its user information (user name and
// password or token), for logs, errors and storage. Text that is not a
// URL loses everything up to its last '@' before the path.
func Redact(raw string) string {
	if t, ok := parseURL(raw); ok {
		return t.redacted
	}
	if u, err := url.Parse(raw); err == nil && u.Opaque == "" {
		u.User = nil
		return u.String()
	}
	rest := raw
	prefix := ""
	if i := strings.Index(raw, "://"); i >= 0 {
		prefix, rest = raw[:i+3], raw[i+3:]
	}
	authority := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority = rest[:i]
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return prefix + rest
}
