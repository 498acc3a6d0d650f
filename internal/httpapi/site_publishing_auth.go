package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// publishingAuthJSON is the SitePublishingAuth object: the private key
// signing the site's visitor tokens, for the site's admins alone.
type publishingAuthJSON struct {
	Object      string `json:"object" enum:"publishing-auth"`
	Backend     string `json:"backend" enum:"custom,integration" doc:"Who signs visitors in"`
	PrivateKey  string `json:"privateKey" doc:"Private key signing the visitor tokens (JWT, HS256)"`
	FallbackURL string `json:"fallbackURL,omitempty" format:"uri" doc:"Where visitors without a valid token are sent"`
}

// publishingAuthOut converts a site's publishing authentication.
func publishingAuthOut(a *service.SitePublishingAuth) publishingAuthJSON {
	return publishingAuthJSON{Object: "publishing-auth", Backend: string(a.Backend), PrivateKey: a.PrivateKey, FallbackURL: a.FallbackURL}
}

func (s *Server) getSitePublishingAuth(ctx context.Context, in *SitePath) (*body[publishingAuthJSON], error) {
	a, err := s.siteSvc.SitePublishingAuth(ctx, in.OrganizationID, in.SiteID)
	if err != nil {
		return nil, err
	}
	return reply(publishingAuthOut(a)), nil
}

func (s *Server) updateSitePublishingAuth(ctx context.Context, in *struct {
	SitePath
	Body struct {
		Backend     string           `json:"backend" enum:"custom,integration" doc:"Who signs visitors in: the site's own sign-in (custom) or an installed integration"`
		FallbackURL nullable[string] `json:"fallbackURL,omitempty" format:"uri" maxLength:"2048" pattern:"^[hH][tT][tT][pP][sS]?://[^\\s]+$" patternDescription:"an absolute http or https URL" doc:"Where visitors without a valid token are sent; omitted keeps it, null removes it"`
	}
}) (*body[publishingAuthJSON], error) {
	a, err := s.siteSvc.UpdateSitePublishingAuth(ctx, in.OrganizationID, in.SiteID, service.SitePublishingAuthChange{
		Backend: quire.VisitorAuthBackend(in.Body.Backend), FallbackURL: in.Body.FallbackURL.ptr()})
	if err != nil {
		return nil, err
	}
	return reply(publishingAuthOut(a)), nil
}

func (s *Server) regenerateSitePublishingAuth(ctx context.Context, in *SitePath) (*body[publishingAuthJSON], error) {
	a, err := s.siteSvc.RegenerateSitePublishingAuth(ctx, in.OrganizationID, in.SiteID)
	if err != nil {
		return nil, err
	}
	return reply(publishingAuthOut(a)), nil
}
