package httpapi

import (
	"context"

	"quire/internal/document"
	"quire/internal/links"
	"quire/internal/quire"
	"quire/internal/service"
)

// locationJSON is a ContentLocation: a page, a file or a URL, each with
// the members of its kind.
type locationJSON struct {
	Kind             string                `json:"kind" enum:"page,file,url"`
	Organization     *orgJSON              `json:"organization,omitempty"`
	Space            *spaceJSON            `json:"space,omitempty"`
	Page             *pageJSON             `json:"page,omitempty"`
	File             *fileJSON             `json:"file,omitempty"`
	URL              string                `json:"url,omitempty"`
	VersionContext   *versionContextJSON   `json:"versionContext,omitempty"`
	InternalLocation *internalLocationJSON `json:"internalLocation,omitempty"`
}

// versionContextJSON tells that a location is in a change request.
type versionContextJSON struct {
	Type          string             `json:"type" enum:"changeRequest"`
	ChangeRequest *changeRequestJSON `json:"changeRequest"`
}

// internalLocationJSON is a place within a page: an anchor, or a block.
type internalLocationJSON struct {
	Type   string `json:"type" enum:"anchor,node"`
	Anchor string `json:"anchor,omitempty"`
	Node   string `json:"node,omitempty"`
}

// Location kinds and places within a page.
const (
	locationPage   = "page"
	locationFile   = "file"
	locationURL    = "url"
	internalAnchor = "anchor"
	internalNode   = "node"
)

// linkJSON is a ContentReferenceUsage: a target, its status and the pages
// referencing it.
type linkJSON struct {
	Status             string           `json:"status" enum:"ok,broken,in-app"`
	Relation           string           `json:"relation" enum:"reference,dependsOn"`
	TargetReference    *locationJSON    `json:"targetReference,omitempty" doc:"The target, when it is a URL or a page or file of the revision"`
	LocationReferences []locationJSON   `json:"locationReferences"`
	Target             quire.ContentRef `json:"target" doc:"The target as the documents reference it; an anchor names its page"`
}

// linkStatsJSON is ContentReferencesStats.
type linkStatsJSON struct {
	Total  int             `json:"total" doc:"Count of links (targets) of the list, whatever their status"`
	Broken brokenStatsJSON `json:"broken"`
}

// brokenStatsJSON counts broken links.
type brokenStatsJSON struct {
	Total         int  `json:"total" doc:"Count of broken links"`
	ChangeRequest *int `json:"changeRequest,omitempty" doc:"Count of links the change request broke; change requests only"`
}

// linksBody is a list of links with its stats.
type linksBody struct {
	Next  *nextPage     `json:"next,omitempty"`
	Count *int          `json:"count,omitempty" doc:"Total count of links in the list"`
	Items []linkJSON    `json:"items"`
	Stats linkStatsJSON `json:"stats"`
}

// locator renders the locations of one revision: the organization and
// space objects are made once, each page once.
type locator struct {
	s       *Server
	c       *service.Content
	ix      *links.Index
	org     *orgJSON
	space   *spaceJSON
	version *versionContextJSON
	sg      *service.DownloadSigner
	pages   map[string]*pageJSON
}

// newLocator prepares the objects every location of c shares.
func (s *Server) newLocator(ctx context.Context, c *service.Content, ix *links.Index) (*locator, error) {
	o, err := s.svc.Organization(ctx, c.Space.OrgID)
	if err != nil {
		return nil, err
	}
	orgLevel, err := s.svc.Level(ctx, userFrom(ctx), service.ScopeOrganization, o.ID)
	if err != nil {
		return nil, err
	}
	sg, err := s.svc.DownloadSigner(ctx)
	if err != nil {
		return nil, err
	}
	org, space := s.orgOut(o, orgLevel), s.spaceOut(c.Space, levelFrom(ctx))
	l := &locator{s: s, c: c, ix: ix, org: &org, space: &space, sg: sg, pages: map[string]*pageJSON{}}
	if c.ChangeRequest != nil {
		cr, err := s.changeRequestOut(ctx, c.ChangeRequest, c.Space)
		if err != nil {
			return nil, err
		}
		l.version = &versionContextJSON{Type: "changeRequest", ChangeRequest: &cr}
	}
	return l, nil
}

// page renders a page of the revision, with its direct children.
func (l *locator) page(p *links.Page) *pageJSON {
	if out, ok := l.pages[p.Page.ID]; ok {
		return out
	}
	opts := ReadOptions{Metadata: true, Computed: true}
	kids := make([]pageJSON, 0, len(p.Children))
	for _, k := range p.Children {
		kids = append(kids, l.s.pageOut(l.c.Space.ID, k.Page, k.Path, nil, opts))
	}
	out := l.s.pageOut(l.c.Space.ID, p.Page, p.Path, kids, opts)
	l.pages[p.Page.ID] = &out
	return &out
}

// pageLocation is the location of a page, at a place within it when in
// is set.
func (l *locator) pageLocation(p *links.Page, in *internalLocationJSON) locationJSON {
	return locationJSON{Kind: locationPage, Organization: l.org, Space: l.space, Page: l.page(p),
		VersionContext: l.version, InternalLocation: in}
}

// location renders where a usage is found.
func (l *locator) location(loc links.Location) (locationJSON, error) {
	p, err := l.ix.Page(loc.Page)
	if err != nil {
		return locationJSON{}, err
	}
	var in *internalLocationJSON
	if loc.Node != "" {
		in = &internalLocationJSON{Type: internalNode, Node: loc.Node}
	}
	return l.pageLocation(p, in), nil
}

// target renders a usage's target when it is a URL, or a page, anchor or
// file of the revision; nil otherwise.
func (l *locator) target(t document.Ref) *locationJSON {
	if t.Kind == document.RefURL {
		return &locationJSON{Kind: locationURL, URL: t.URL}
	}
	if t.Space != "" {
		return nil
	}
	switch t.Kind {
	case document.RefPage, document.RefAnchor:
		p, err := l.ix.Page(t.Page)
		if err != nil {
			return nil
		}
		var in *internalLocationJSON
		if t.Kind == document.RefAnchor {
			in = &internalLocationJSON{Type: internalAnchor, Anchor: t.Anchor}
		}
		out := l.pageLocation(p, in)
		return &out
	case document.RefFile:
		f, err := l.ix.File(t.File)
		if err != nil {
			return nil
		}
		fj := l.s.fileOut(l.sg, l.c.Space.ID, l.c.Rev.ID, f, ReadOptions{Metadata: true})
		return &locationJSON{Kind: locationFile, Organization: l.org, Space: l.space, File: &fj, VersionContext: l.version}
	}
	return nil
}

// link renders a usage.
func (l *locator) link(u links.Usage) (linkJSON, error) {
	out := linkJSON{Status: string(u.Status), Relation: string(u.Relation), TargetReference: l.target(u.Target),
		LocationReferences: make([]locationJSON, 0, len(u.Locations)), Target: u.Target}
	for _, loc := range u.Locations {
		lj, err := l.location(loc)
		if err != nil {
			return linkJSON{}, err
		}
		out.LocationReferences = append(out.LocationReferences, lj)
	}
	return out, nil
}

// statsOut renders the stats of a list.
func statsOut(st links.Stats) linkStatsJSON {
	return linkStatsJSON{Total: st.Total, Broken: brokenStatsJSON{Total: st.Broken, ChangeRequest: st.BrokenByChangeRequest}}
}
