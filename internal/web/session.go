package web

import (
	"net"
	"net/http"
	"net/url"
	"time"
)

// SessionCookie names the cookie holding a browser session's secret.
const SessionCookie = "quire_session"

// SessionCookieFor returns the cookie carrying a session secret until
// expires; an empty value clears it. It is HttpOnly, SameSite=Lax, and
// Secure when secure is set.
func SessionCookieFor(value string, expires time.Time, secure bool) *http.Cookie {
	c := &http.Cookie{Name: SessionCookie, Value: value, Path: "/", Expires: expires, HttpOnly: true,
		Secure: secure, SameSite: http.SameSiteLaxMode}
	if value == "" {
		c.Expires, c.MaxAge = time.Time{}, -1
	}
	return c
}

// SecureCookies reports whether cookies are marked Secure for a server
// reached at base: always, except over plain http on a loopback address.
func SecureCookies(base string) bool {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return true
	}
	host := u.Hostname()
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// OriginOf returns the scheme://host[:port] of a URL, "" if it does not
// parse.
func OriginOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
