package service

import (
	"quire/internal/gitbook"
)

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
