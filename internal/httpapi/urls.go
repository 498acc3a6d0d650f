package httpapi

import (
	"net/url"
	"strings"
)

// urlBuilder makes the absolute URLs the API answers, from the configured
// base URL. Every URL it makes is a URI: path segments, page paths and
// anchors are percent-encoded, so a page titled in any script gets an
// address of ASCII characters only.
type urlBuilder struct {
	base string
}

// api returns the API URL of an object path.
func (b urlBuilder) api(parts ...string) string {
	return b.join("/v1", parts)
}

// apiLink returns the API URL of a path already escaped (a signed link's)
// with its query.
func (b urlBuilder) apiLink(escapedPath, query string) string {
	u := b.base + "/v1/" + escapedPath
	if query != "" {
		u += "?" + query
	}
	return u
}

// integrationImage returns the address of an image an integration
// published.
func (b urlBuilder) integrationImage(name, digest string) string {
	return b.join("/integrations", []string{name, "images", digest})
}

// app returns the application URL of an object path.
func (b urlBuilder) app(parts ...string) string {
	return b.join("/app", parts)
}

// appPage returns the application URL of a page of a space, from its path,
// which may end with a section's anchor (path#anchor).
func (b urlBuilder) appPage(spaceID, pagePath string) string {
	path, anchor, ok := strings.Cut(pagePath, "#")
	u := b.app("s", spaceID, path)
	if ok {
		u += "#" + (&url.URL{Fragment: anchor}).EscapedFragment()
	}
	return u
}

// published returns the address a space's readers follow.
func (b urlBuilder) published(spaceID string) string {
	return b.join("/docs", []string{spaceID})
}

// site returns the address of a published site, ending with a slash, and
// below it the given segments.
func (b urlBuilder) site(name string, below ...string) string {
	return b.join("/sites", append([]string{name}, below...)) + "/"
}

// join appends path parts to the base and prefix, each segment
// percent-encoded; a part may hold several segments separated by slashes
// (a page path).
func (b urlBuilder) join(prefix string, parts []string) string {
	var u strings.Builder
	u.WriteString(b.base)
	u.WriteString(prefix)
	for _, p := range parts {
		for seg := range strings.SplitSeq(p, "/") {
			u.WriteByte('/')
			u.WriteString(url.PathEscape(seg))
		}
	}
	return u.String()
}

// asURI returns a URL given by a user (a logo, an icon) as a URI: every
// byte a URI may not hold (non-ASCII, spaces, quotes, angle brackets...)
// and every "%" that starts no escape is percent-encoded; the rest is kept
// as given.
func asURI(raw string) string {
	clean := true
	for i := 0; i < len(raw); i++ {
		if !uriByte(raw, i) {
			clean = false
			break
		}
	}
	if clean {
		return raw
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(raw) + 16)
	for i := 0; i < len(raw); i++ {
		if uriByte(raw, i) {
			b.WriteByte(raw[i])
			continue
		}
		c := raw[i]
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// uriByte reports whether the byte at i of s may stand as it is in a URI
// (RFC 3986): an unreserved or reserved character, or the "%" of an
// escape.
func uriByte(s string, i int) bool {
	c := s[i]
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c == '%':
		return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
