package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// SitePath names a site of an organization.
type SitePath struct {
	OrgPath
	SiteID string `path:"siteId"`
}

// ShareKeyParam reads a site as the holder of a share link.
type ShareKeyParam struct {
	ShareKey string `query:"shareKey" maxLength:"256" doc:"Key of a share link: the read answers what the link's holder sees, with addresses that carry the key"`
}

func (s *Server) listSites(ctx context.Context, in *struct {
	OrgPath
	ListParams
	Space     string   `query:"space" maxLength:"64" doc:"Only sites publishing this space"`
	Title     string   `query:"title" maxLength:"128" doc:"Only sites whose title contains this, ignoring case"`
	Published string   `query:"published" enum:"true,false" doc:"Only published (true) or unpublished (false) sites"`
	Type      []string `query:"type" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium" doc:"Only sites of these types"`
}) (*body[listOf[siteJSON]], error) {
	f := quire.SiteFilter{OrgID: in.OrganizationID, SpaceID: in.Space, Title: in.Title}
	if in.Published != "" {
		p := in.Published == "true"
		f.Published = &p
	}
	for _, t := range in.Type {
		f.Types = append(f.Types, quire.SiteType(t))
	}
	l, err := s.siteSvc.Sites(ctx, f, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.siteOut)), nil
}

func (s *Server) createSite(ctx context.Context, in *struct {
	OrgPath
	Body *struct {
		Type       string   `json:"type,omitempty" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium" doc:"Plan of the site (default basic)"`
		Title      string   `json:"title,omitempty" minLength:"2" maxLength:"128"`
		Visibility string   `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth"`
		Spaces     []string `json:"spaces,omitempty" maxItems:"100" doc:"Spaces to publish as the site's site spaces"`
	} `required:"false"`
}) (*body[siteJSON], error) {
	var c service.SiteCreate
	if b := in.Body; b != nil {
		c = service.SiteCreate{Type: quire.SiteType(b.Type), Title: b.Title, Visibility: quire.Visibility(b.Visibility), Spaces: b.Spaces}
	}
	site, err := s.siteSvc.CreateSite(ctx, userFrom(ctx), in.OrganizationID, c)
	if err != nil {
		return nil, err
	}
	return reply(s.siteOut(site)), nil
}

func (s *Server) getSite(ctx context.Context, in *SitePath) (*body[siteJSON], error) {
	site, err := s.siteSvc.Site(ctx, in.OrganizationID, in.SiteID)
	if err != nil {
		return nil, err
	}
	return reply(s.siteOut(site)), nil
}

func (s *Server) updateSite(ctx context.Context, in *struct {
	SitePath
	Body struct {
		Title              *string           `json:"title,omitempty" minLength:"2" maxLength:"128"`
		Visibility         *string           `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth"`
		Basename           *string           `json:"basename,omitempty" minLength:"1" maxLength:"100"`
		AdaptiveContent    *siteAdaptiveJSON `json:"adaptiveContent,omitempty"`
		AgentsContext      *string           `json:"agentsContext,omitempty" enum:"excluded,included"`
		DefaultSiteSpace   *string           `json:"defaultSiteSpace,omitempty" minLength:"1" doc:"Site space to make the default of the root, or of the section holding it"`
		DefaultSiteSection *string           `json:"defaultSiteSection,omitempty" minLength:"1" doc:"Section to make the site's default"`
		Proxy              nullable[string]  `json:"proxy,omitempty" maxLength:"512" pattern:"^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$" doc:"Proxy origin <host>/<path>; null removes it"`
	}
}) (*body[siteJSON], error) {
	b := in.Body
	upd := quire.SiteUpdate{Title: b.Title, Basename: b.Basename, DefaultSection: b.DefaultSiteSection}
	if b.Visibility != nil {
		v := quire.Visibility(*b.Visibility)
		upd.Visibility = &v
	}
	if b.AdaptiveContent != nil {
		upd.AdaptiveContent = &b.AdaptiveContent.Enabled
	}
	if b.AgentsContext != nil {
		a := quire.SiteAgentsContext(*b.AgentsContext)
		upd.AgentsContext = &a
	}
	upd.Proxy = b.Proxy.ptr()
	site, err := s.siteSvc.UpdateSite(ctx, in.OrganizationID, in.SiteID, upd, b.DefaultSiteSpace)
	if err != nil {
		return nil, err
	}
	return reply(s.siteOut(site)), nil
}

func (s *Server) deleteSite(ctx context.Context, in *SitePath) (*statusOnly, error) {
	ok, err := s.siteSvc.DeleteSite(ctx, in.OrganizationID, in.SiteID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) publishSite(ctx context.Context, in *SitePath) (*body[siteJSON], error) {
	site, err := s.siteSvc.PublishSite(ctx, in.OrganizationID, in.SiteID, true)
	if err != nil {
		return nil, err
	}
	return reply(s.siteOut(site)), nil
}

func (s *Server) unpublishSite(ctx context.Context, in *SitePath) (*body[siteJSON], error) {
	site, err := s.siteSvc.PublishSite(ctx, in.OrganizationID, in.SiteID, false)
	if err != nil {
		return nil, err
	}
	return reply(s.siteOut(site)), nil
}

func (s *Server) getSiteStructure(ctx context.Context, in *struct {
	SitePath
	ShareKeyParam
}) (*body[siteStructureJSON], error) {
	st, err := s.siteSvc.SiteStructure(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.ShareKey)
	if err != nil {
		return nil, err
	}
	return reply(s.newStructureOut(st).tree()), nil
}
