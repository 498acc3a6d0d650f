package service

import (
	"net/url"
	"strings"

	"quire/internal/gitbook"
	"quire/internal/quire"
)

// fileNamed returns the file a repository path names (.gitbook/assets/<name>,
// percent-encoded or not): the file of that name, the lowest id when
// several share it; nil for none. Raw HTML and paths of imported pages
// name files this way, where image blocks name them by id.
func fileNamed(files map[string]*quire.File, path string) *quire.File {
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	name := path[strings.LastIndex(path, "/")+1:]
	var f *quire.File
	for _, c := range files {
		if c.Name == name && (f == nil || c.ID < f.ID) {
			f = c
		}
	}
	return f
}

// Path resolves a page path the page's raw HTML names relative to itself
// (other-page.md, ../dir/README.md), as written in its repository, to the
// address of that page for the visitor. Only pages read from a repository
// know their paths; for others, and for a path naming no readable page,
// the target is empty and the address is kept as written.
func (p *SitePage) Path(target string) SiteTarget {
	x := p.refs
	if x.page == nil || x.page.Git == nil || x.page.Git.Path == "" {
		return SiteTarget{}
	}
	path, ok := gitbook.TargetPath(x.page.Git.Path, target)
	if !ok {
		return SiteTarget{}
	}
	for _, np := range x.nav.byID {
		if g := np.page.Git; g != nil && g.Path == path {
			return SiteTarget{URL: np.url, Title: np.page.Title}
		}
	}
	return SiteTarget{}
}
