package httpapi

import (
	"context"

	"quire/internal/links"
	"quire/internal/quire"
	"quire/internal/service"
)

// LinkFilters filter a list of links by status.
type LinkFilters struct {
	Status string `query:"status" enum:"ok,broken,in-app" doc:"Only links of this status"`
}

// CRLinkFilters add, for a change request, where its broken links are
// broken.
type CRLinkFilters struct {
	LinkFilters
	BrokenContext string `query:"brokenContext" enum:"change-request,space" doc:"Only broken links broken by the change request (change-request) or broken in the space too (space)"`
}

// query converts the filters for the service.
func (f LinkFilters) query() service.LinkQuery {
	return service.LinkQuery{Status: links.Status(f.Status)}
}

// query converts the filters for the service.
func (f CRLinkFilters) query() service.LinkQuery {
	q := f.LinkFilters.query()
	q.BrokenContext = links.BrokenContext(f.BrokenContext)
	return q
}

// The inputs of the link lists.
type (
	spaceLinksIn struct {
		SpacePath
		ListParams
		LinkFilters
	}
	crLinksIn struct {
		CRPath
		ListParams
		CRLinkFilters
	}
	spacePageLinksIn struct {
		SpacePath
		PageIDParam
		ListParams
		LinkFilters
	}
	crPageLinksIn struct {
		CRPath
		PageIDParam
		ListParams
		LinkFilters
	}
)

// linksIn is the input of a link list.
type linksIn interface {
	ref() service.ContentRef
	page() quire.Page
	query() service.LinkQuery
	pageFilter() string
}

// pageFilter is the page whose links are listed: none for whole
// revisions, the path's page for page lists.
func (spaceLinksIn) pageFilter() string  { return "" }
func (crLinksIn) pageFilter() string     { return "" }
func (p PageIDParam) pageFilter() string { return p.PageID }

// listLinks answers the link lists.
func listLinks[I linksIn](s *Server) func(context.Context, *I) (*body[linksBody], error) {
	return func(ctx context.Context, in *I) (*body[linksBody], error) {
		q := (*in).query()
		q.Page, q.List = (*in).pageFilter(), (*in).page()
		res, err := s.links.List(ctx, (*in).ref(), q)
		if err != nil {
			return nil, err
		}
		loc, err := s.newLocator(ctx, res.Content, res.Index)
		if err != nil {
			return nil, err
		}
		l, err := listJSONOrErr(res.Usages, loc.link)
		if err != nil {
			return nil, err
		}
		return reply(linksBody{Next: l.Next, Count: l.Count, Items: l.Items, Stats: statsOut(res.Stats)}), nil
	}
}

// The inputs of the backlink lists.
type (
	spacePageBacklinksIn struct {
		SpacePath
		PageIDParam
		ListParams
	}
	crPageBacklinksIn struct {
		CRPath
		PageIDParam
		ListParams
	}
	spaceFileBacklinksIn struct {
		SpacePath
		FileIDParam
		ListParams
	}
	crFileBacklinksIn struct {
		CRPath
		FileIDParam
		ListParams
	}
)

// backlinksIn is the input of a backlink list.
type backlinksIn interface {
	ref() service.ContentRef
	page() quire.Page
	backlinks(ctx context.Context, l *service.Links, ref service.ContentRef, p quire.Page) (*service.Backlinks, error)
}

// backlinks lists the pages linking to the path's page.
func (p PageIDParam) backlinks(ctx context.Context, l *service.Links, ref service.ContentRef, pg quire.Page) (*service.Backlinks, error) {
	return l.PageBacklinks(ctx, ref, p.PageID, pg)
}

// backlinks lists the pages using the path's file.
func (p FileIDParam) backlinks(ctx context.Context, l *service.Links, ref service.ContentRef, pg quire.Page) (*service.Backlinks, error) {
	return l.FileBacklinks(ctx, ref, p.FileID, pg)
}

// listBacklinks answers the backlink lists: the referencing pages as
// page locations.
func listBacklinks[I backlinksIn](s *Server) func(context.Context, *I) (*body[listOf[locationJSON]], error) {
	return func(ctx context.Context, in *I) (*body[listOf[locationJSON]], error) {
		res, err := (*in).backlinks(ctx, s.links, (*in).ref(), (*in).page())
		if err != nil {
			return nil, err
		}
		loc, err := s.newLocator(ctx, res.Content, res.Index)
		if err != nil {
			return nil, err
		}
		return reply(listJSON(res.Pages, func(p *links.Page) locationJSON { return loc.pageLocation(p, nil) })), nil
	}
}
