package httpapi

import (
	"context"
	"net/http"
	"strings"

	"quire/internal/quire"
	"quire/internal/readermcp"
	"quire/internal/service"
)

// siteMCPPath is the address of a site's MCP endpoint below the site
// (or below its share-link address).
const siteMCPPath = "~mcp"

// siteMCP answers the MCP endpoint of a published site: the visitor is
// read as for its pages (share key, visitor token, unsigned claims), so
// the tools see exactly what the pages would show that visitor.
func (s *Server) siteMCP(w http.ResponseWriter, r *http.Request) {
	if s.sites == nil {
		http.Error(w, "published sites are not available", http.StatusServiceUnavailable)
		return
	}
	name, rest := r.PathValue("site"), r.PathValue("rest")
	visitor := s.visitorFrom(w, r, name, &rest)
	if rest != siteMCPPath {
		s.siteError(w, r, quire.NotFound("page"))
		return
	}
	s.mcp.Handler(func(r *http.Request) (readermcp.Docs, error) {
		v, err := s.sites.Visit(r.Context(), name, visitor)
		if err != nil {
			return nil, mcpVisitError(err)
		}
		d := &siteDocs{sites: s.sites, visit: v, root: s.urls.base + v.Base, limits: s.limits}
		if s.limits != nil {
			d.address = clientKey(r)
		}
		return d, nil
	}).ServeHTTP(w, r)
}

// mcpVisitError turns a refused visit into the answer the MCP endpoint
// gives before any exchange: 404 for a site the visitor may not know of,
// 401 when a visitor token is needed.
func mcpVisitError(err error) error {
	switch quire.ErrorCode(err) {
	case quire.ENOTFOUND:
		return readermcp.ErrNotFound
	case quire.EUNAUTHORIZED:
		return &readermcp.StatusError{Status: http.StatusUnauthorized,
			Message: "this site is for signed-in visitors: send the visitor token (jwt_token) you were given"}
	}
	return err
}

// siteDocs answers the MCP tools for one visit of a site.
type siteDocs struct {
	sites *service.SiteReader
	visit *service.SiteVisit
	// root is the site's absolute address for this visitor, ending in /.
	root string
	// limits counts the searches of address, the visitor's client
	// address, against the same limit as the site's search box.
	limits  *service.RateLimits
	address string
}

// Info implements readermcp.Docs.
func (d *siteDocs) Info(context.Context) (readermcp.SiteInfo, error) {
	title := d.visit.Site.Title
	if c := d.visit.Customization; c != nil && c.Title != "" {
		title = c.Title
	}
	return readermcp.SiteInfo{Name: "site-" + d.visit.Site.ID, Title: title, URL: d.root}, nil
}

// Search implements readermcp.Docs.
func (d *siteDocs) Search(ctx context.Context, query string, limit int) ([]readermcp.Hit, error) {
	if _, err := d.limits.Take(ctx, service.RateSearch, d.address); err != nil {
		if quire.ErrorCode(err) == quire.ETOOMANY {
			return nil, &readermcp.StatusError{Status: http.StatusTooManyRequests, Message: quire.ErrorMessage(err)}
		}
		return nil, err
	}
	hits, err := d.sites.Search(ctx, d.visit, query)
	if err != nil {
		return nil, err
	}
	out := make([]readermcp.Hit, 0, min(limit, len(hits)))
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		path := d.relative(h.URL)
		out = append(out, readermcp.Hit{Path: path, Title: h.Title, URL: d.root + path})
	}
	return out, nil
}

// Page implements readermcp.Docs: the page as Markdown, following a
// page that moved.
func (d *siteDocs) Page(ctx context.Context, path string) (readermcp.Page, error) {
	p, err := d.sites.Page(ctx, d.visit, path+".md")
	if err == nil && p.Redirect != "" {
		path = strings.TrimSuffix(d.relative(p.Redirect), ".md")
		p, err = d.sites.Page(ctx, d.visit, path+".md")
	}
	if quire.ErrorCode(err) == quire.ENOTFOUND || (err == nil && p.Redirect != "") {
		return readermcp.Page{}, readermcp.ErrNotFound
	} else if err != nil {
		return readermcp.Page{}, err
	}
	text, err := pageMarkdown(ctx, p)
	if err != nil {
		return readermcp.Page{}, err
	}
	title, _, _ := strings.Cut(strings.TrimPrefix(text, "# "), "\n")
	return readermcp.Page{Path: path, Title: title, URL: d.root + path, Markdown: text}, nil
}

// Pages implements readermcp.Docs.
func (d *siteDocs) Pages(ctx context.Context) ([]readermcp.PageRef, error) {
	pages, err := d.sites.Pages(ctx, d.visit)
	if err != nil {
		return nil, err
	}
	out := make([]readermcp.PageRef, len(pages))
	for i, p := range pages {
		path := d.relative(p.URL)
		out[i] = readermcp.PageRef{Path: path, Title: p.Title, URL: d.root + path, Depth: p.Depth}
	}
	return out, nil
}

// relative is an address of the site without the site's own address.
func (d *siteDocs) relative(u string) string {
	u = strings.TrimPrefix(u, d.root)
	return strings.TrimPrefix(u, d.visit.Base)
}
