package readermcp

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// pagePath turns what a client gave get_page (a page path, or the page's
// full URL on this site, perhaps its .md form) into the path Docs.Page
// takes: no leading or trailing slash, no query or fragment.
func pagePath(siteURL, in string) (string, error) {
	in = strings.TrimSpace(in)
	var p string
	if strings.Contains(in, "://") {
		u, err := url.Parse(in)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("%q is not an http(s) URL", in)
		}
		rest, ok := underSite(siteURL, u)
		if !ok {
			return "", fmt.Errorf("%q is not a page of this site (%s)", in, siteURL)
		}
		p = rest
	} else {
		if i := strings.IndexAny(in, "?#"); i >= 0 {
			in = in[:i]
		}
		if dec, err := url.PathUnescape(in); err == nil {
			in = dec
		}
		p = in
	}
	p = strings.Trim(p, "/")
	p = strings.TrimSuffix(p, ".md")
	if strings.ContainsRune(p, 0) {
		return "", errors.New("the path holds a NUL character")
	}
	return p, nil
}

// underSite returns u's path below the site's root URL, or false when u is
// on another host or outside the site.
func underSite(siteURL string, u *url.URL) (string, bool) {
	if siteURL == "" {
		return "", false
	}
	base, err := url.Parse(siteURL)
	if err != nil || !strings.EqualFold(base.Host, u.Host) {
		return "", false
	}
	root := strings.TrimSuffix(base.Path, "/")
	switch {
	case u.Path == root:
		return "", true
	case strings.HasPrefix(u.Path, root+"/"):
		return u.Path[len(root)+1:], true
	}
	return "", false
}
