package service

import (
	"context"
	"io"
	"strings"

	"quire/internal/quire"
)

// movedPageDepth bounds how many earlier revisions a missing path is
// looked up in.
const movedPageDepth = 25

// movedPage looks a path up in the earlier revisions of a site space (by
// first parent, at most movedPageDepth of them); when a page lived there
// and is still readable, it answers the page's address now (its Markdown
// address for a .md request), else "".
func (r *SiteReader) movedPage(ctx context.Context, v *SiteVisit, nav *spaceNav, path string, md bool) (string, error) {
	rev := nav.snap.Rev
	for range movedPageDepth {
		if len(rev.Parents) == 0 {
			return "", nil
		}
		prev, err := r.svc.store.Revision(ctx, rev.SpaceID, rev.Parents[0])
		if quire.IsNotFound(err) {
			return "", nil
		} else if err != nil {
			return "", err
		}
		rev = prev
		p, err := r.svc.engine.Snapshot(r.svc.store, rev).PageByPath(ctx, path)
		if quire.IsNotFound(err) {
			continue
		} else if err != nil {
			return "", err
		}
		if np := nav.byID[p.ID]; np != nil {
			return pageAddress(v, nav, np, md), nil
		}
		return "", nil
	}
	return "", nil
}

// pageAddress is where a visitor reads a page of a site space: its
// rendered address, or its Markdown one when md.
func pageAddress(v *SiteVisit, nav *spaceNav, np *navPage, md bool) string {
	if md {
		return v.SpaceURL(nav.ss) + np.path + ".md"
	}
	return np.url
}

// repoRedirect answers where a redirect of the site space's repository
// (see quire.GitRedirect) leads path: the address of the page it names
// when the visitor may read it, its Markdown address for a .md request,
// else "". Addresses are always paths below the site.
func (r *SiteReader) repoRedirect(ctx context.Context, v *SiteVisit, nav *spaceNav, path string, md bool) (string, error) {
	if path == "" {
		return "", nil
	}
	rd, err := r.svc.store.GitRedirect(ctx, nav.ss.Space.Space.ID, path)
	if quire.IsNotFound(err) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	np := nav.byID[rd.PageID]
	if rd.PageID == "" || np == nil {
		return "", nil
	}
	return pageAddress(v, nav, np, md), nil
}

// SiteFile is a file of a site opened for a visitor.
type SiteFile struct {
	File *quire.File
	Body io.ReadCloser
	Size int64
}

// OpenFile opens a file of a revision of a site space the visitor may
// read. ENOTFOUND for anything else.
func (r *SiteReader) OpenFile(ctx context.Context, v *SiteVisit, siteSpaceID, revisionID, fileID string) (*SiteFile, error) {
	var ss *SiteSpaceView
	for _, s := range v.SiteSpaces {
		if s.SiteSpace.ID == siteSpaceID {
			ss = s
		}
	}
	if ss == nil {
		return nil, quire.NotFound("file")
	}
	snap, err := r.snapshot(ctx, ss, revisionID)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("file")
	} else if err != nil {
		return nil, err
	}
	f, err := snap.File(ctx, fileID)
	if err != nil {
		return nil, err
	}
	body, size, err := r.svc.OpenBlob(ctx, f.Blob)
	if err != nil {
		return nil, err
	}
	return &SiteFile{File: f, Body: body, Size: size}, nil
}

// SitePageLink is a page of a site with its address.
type SitePageLink struct {
	Title string
	URL   string
	// Indexable is false for pages that ask not to be indexed.
	Indexable bool
	// Depth is how deep the page sits in its site space's tree, 0 at the
	// top.
	Depth int
}

// Pages lists the readable pages of every site space the visitor may see,
// in reading order, at their addresses.
func (r *SiteReader) Pages(ctx context.Context, v *SiteVisit) ([]SitePageLink, error) {
	var out []SitePageLink
	for _, ss := range v.SiteSpaces {
		nav, err := r.navigation(ctx, v, ss)
		if err != nil {
			return nil, err
		}
		for _, np := range nav.order {
			out = append(out, SitePageLink{Title: np.page.Title, URL: v.SpaceURL(ss) + np.path,
				Indexable: !np.page.NoIndex && !np.page.NoRobotsIndex, Depth: strings.Count(np.path, "/")})
		}
	}
	return out, nil
}

// maxListedSites caps the sites the start page lists.
const maxListedSites = 200

// PublishedSites lists the public published sites, for the start page;
// unlisted and restricted sites are never listed.
func (r *SiteReader) PublishedSites(ctx context.Context) ([]SiteNavLink, error) {
	sites, err := r.svc.store.PublishedSitesOf(ctx, quire.PublishedSiteFilter{Visibilities: []quire.Visibility{quire.VisibilityPublic}}, maxListedSites)
	if err != nil {
		return nil, err
	}
	out := make([]SiteNavLink, len(sites))
	for i, s := range sites {
		out[i] = SiteNavLink{Title: s.Title, URL: "/sites/" + s.Name() + "/"}
	}
	return out, nil
}
