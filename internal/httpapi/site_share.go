package httpapi

import (
	"context"

	"quire/internal/quire"
)

// ShareLinkPath names a share link of a site.
type ShareLinkPath struct {
	SitePath
	ShareLinkID string `path:"shareLinkId"`
}

func (s *Server) listSiteShareLinks(ctx context.Context, in *struct {
	SitePath
	ListParams
}) (*body[listOf[shareLinkJSON]], error) {
	site, l, err := s.siteSvc.SiteShareLinks(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, func(sl *quire.SiteShareLink) shareLinkJSON { return s.shareLinkOut(site, sl) })), nil
}

func (s *Server) createSiteShareLink(ctx context.Context, in *struct {
	SitePath
	Body struct {
		Name string `json:"name" maxLength:"50" doc:"Name of the share link"`
	}
}) (*body[shareLinkJSON], error) {
	site, l, err := s.siteSvc.CreateSiteShareLink(ctx, in.OrganizationID, in.SiteID, in.Body.Name)
	if err != nil {
		return nil, err
	}
	return reply(s.shareLinkOut(site, l)), nil
}

func (s *Server) updateSiteShareLink(ctx context.Context, in *struct {
	ShareLinkPath
	Body struct {
		Name   *string `json:"name,omitempty" maxLength:"50"`
		Active *bool   `json:"active,omitempty" doc:"Whether the link opens the site"`
	}
}) (*body[shareLinkJSON], error) {
	site, l, err := s.siteSvc.UpdateSiteShareLink(ctx, in.OrganizationID, in.SiteID, in.ShareLinkID,
		quire.SiteShareLinkUpdate{Name: in.Body.Name, Active: in.Body.Active})
	if err != nil {
		return nil, err
	}
	return reply(s.shareLinkOut(site, l)), nil
}

func (s *Server) deleteSiteShareLink(ctx context.Context, in *ShareLinkPath) (*statusOnly, error) {
	ok, err := s.siteSvc.DeleteSiteShareLink(ctx, in.OrganizationID, in.SiteID, in.ShareLinkID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}
