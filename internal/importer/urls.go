package importer

import (
	"net/url"
	"path"
	"strings"
)

// canonical is u as one key per resource: no user information or
// fragment, lower-case scheme and host without the default port, a clean
// path without a trailing index.html, sorted query.
func canonical(u *url.URL) *url.URL {
	c := *u
	c.User = nil
	c.Fragment, c.RawFragment = "", ""
	c.Scheme = strings.ToLower(c.Scheme)
	c.Host = strings.ToLower(c.Host)
	if h, port, ok := strings.Cut(c.Host, ":"); ok && !strings.HasPrefix(c.Host, "[") &&
		(c.Scheme == "http" && port == "80" || c.Scheme == "https" && port == "443") {
		c.Host = h
	}
	p := c.Path
	if p == "" {
		p = "/"
	}
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	if b := path.Base(clean); strings.EqualFold(b, "index.html") || strings.EqualFold(b, "index.htm") {
		clean = strings.TrimSuffix(clean, b)
	}
	c.Path, c.RawPath = clean, ""
	c.ForceQuery = false
	if c.RawQuery != "" {
		if q, err := url.ParseQuery(c.RawQuery); err == nil {
			c.RawQuery = q.Encode()
		}
	}
	return &c
}

// scope is the part of a site a crawl stays in: one scheme and host, and
// paths under one prefix.
type scope struct {
	scheme, host string
	prefix       string // ends with "/"
}

// scopeOf is the scope of a crawl started at start: its folder, where a
// last path segment without a dot counts as a folder (/docs means /docs/).
func scopeOf(start *url.URL) scope {
	c := canonical(start)
	p := c.Path
	if !strings.HasSuffix(p, "/") {
		if strings.Contains(path.Base(p), ".") {
			p = path.Dir(p)
			if p != "/" {
				p += "/"
			}
		} else {
			p += "/"
		}
	}
	return scope{scheme: c.Scheme, host: c.Host, prefix: p}
}

// contains reports whether the canonical URL c is in the scope.
func (s scope) contains(c *url.URL) bool {
	if c.Scheme != s.scheme || c.Host != s.host {
		return false
	}
	return strings.HasPrefix(c.Path, s.prefix) || c.Path == strings.TrimSuffix(s.prefix, "/")
}

// segments are the slugs of c's path below the scope's prefix, a file
// extension dropped, the query (if any) appended to the last one.
func (s scope) segments(c *url.URL) []string {
	rest := strings.TrimPrefix(strings.TrimPrefix(c.Path, strings.TrimSuffix(s.prefix, "/")), "/")
	var segs []string
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" {
			continue
		}
		segs = append(segs, seg)
	}
	if n := len(segs); n > 0 && !strings.HasSuffix(c.Path, "/") {
		segs[n-1] = strings.TrimSuffix(segs[n-1], path.Ext(segs[n-1]))
	}
	if c.RawQuery != "" {
		if len(segs) == 0 {
			segs = append(segs, "index")
		}
		segs[len(segs)-1] += "-" + c.RawQuery
	}
	out := segs[:0]
	for _, seg := range segs {
		if slug := slugify(seg); slug != "" {
			out = append(out, slug)
		}
	}
	return out
}

// slugify is a lower-case file name made of s: letters, digits and '.' kept,
// runs of anything else one '-'. Names GitBook reserves get a suffix.
func slugify(s string) string {
	if d, err := url.PathUnescape(s); err == nil {
		s = d
	}
	s = strings.ToLower(safeName(s))
	s = strings.Trim(s, "-_.")
	switch s {
	case "readme", "summary":
		s += "-page"
	}
	return s
}
