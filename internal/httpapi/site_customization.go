package httpapi

import (
	"context"

	"quire/internal/quire"
)

// publishedSiteJSON is the PublishedContentSite object: the site, its
// structure and its customizations.
type publishedSiteJSON struct {
	Object         string                  `json:"object" enum:"published-content-site"`
	Site           siteJSON                `json:"site"`
	Structure      siteStructureJSON       `json:"structure"`
	Customizations publishedCustomizations `json:"customizations"`
	Scripts        []publishedScript       `json:"scripts" doc:"Integration scripts the site loads; Quire has none"`
}

// publishedCustomizations are the customization of the site and of each
// site space.
type publishedCustomizations struct {
	Site       *quire.SiteCustomizationSettings            `json:"site"`
	SiteSpaces map[string]*quire.SiteCustomizationSettings `json:"siteSpaces" doc:"By site space id"`
}

// publishedScript is a script a published site loads.
type publishedScript struct {
	Script  string `json:"script" format:"uri"`
	Cookies bool   `json:"cookies"`
}

func (s *Server) getSiteCustomization(ctx context.Context, in *struct {
	SitePath
	Unmasked bool `query:"unmasked" deprecated:"true" doc:"Accepted and ignored: settings are never masked"`
}) (*body[*quire.SiteCustomizationSettings], error) {
	c, err := s.siteSvc.SiteCustomization(ctx, in.OrganizationID, in.SiteID)
	if err != nil {
		return nil, err
	}
	return reply(c), nil
}

func (s *Server) updateSiteCustomization(ctx context.Context, in *struct {
	SitePath
	Body quire.SiteCustomizationSettings
}) (*body[*quire.SiteCustomizationSettings], error) {
	c, err := s.siteSvc.PutSiteCustomization(ctx, in.OrganizationID, in.SiteID, in.Body)
	if err != nil {
		return nil, err
	}
	return reply(c), nil
}

func (s *Server) getPublishedSite(ctx context.Context, in *struct {
	SitePath
	ShareKeyParam
}) (*body[publishedSiteJSON], error) {
	p, err := s.siteSvc.PublishedSite(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.ShareKey)
	if err != nil {
		return nil, err
	}
	st := p.Structure
	out := publishedSiteJSON{Object: "published-content-site", Site: s.siteOut(st.Site),
		Structure: s.newStructureOut(st).tree(), Scripts: []publishedScript{},
		Customizations: publishedCustomizations{Site: p.Customization,
			SiteSpaces: make(map[string]*quire.SiteCustomizationSettings, len(st.AllSiteSpaces))}}
	for _, v := range st.AllSiteSpaces {
		out.Customizations.SiteSpaces[v.SiteSpace.ID] = p.Customization
	}
	return reply(out), nil
}
