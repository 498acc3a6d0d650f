package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// contentInstallationJSON is an IntegrationSpaceInstallation or
// IntegrationSiteInstallation: Space or Site holds the id, or the whole
// object when extended.
type contentInstallationJSON struct {
	Integration   string          `json:"integration"`
	Installation  string          `json:"installation"`
	Status        string          `json:"status" enum:"active,pending,paused"`
	Configuration map[string]any  `json:"configuration"`
	ExternalIDs   []string        `json:"externalIds"`
	Space         json.RawMessage `json:"space,omitempty" doc:"Id of the space, or the space when extended"`
	Site          json.RawMessage `json:"site,omitempty" doc:"Id of the site, or the site when extended"`
	URLs          struct {
		Location       string `json:"location" format:"uri"`
		PublicEndpoint string `json:"publicEndpoint" format:"uri"`
	} `json:"urls"`
}

// contentInstallationOut converts a space or site installation, with the
// whole space or site when extended.
func (s *Server) contentInstallationOut(ctx context.Context, n *service.Integrations, in *quire.Integration, c *quire.ContentInstallation, extended bool) (contentInstallationJSON, error) {
	out := contentInstallationJSON{Integration: in.Name, Installation: c.InstallationID, Status: c.Status,
		Configuration: c.Configuration, ExternalIDs: c.ExternalIDs}
	target, _ := json.Marshal(c.TargetID) // a string: cannot fail
	if extended {
		var (
			v   any
			err error
		)
		if c.Kind == quire.OnSite {
			var site *quire.Site
			if site, err = n.SiteOf(ctx, c.TargetID); err == nil {
				v = s.siteOut(site)
			}
		} else {
			var sp *quire.Space
			if sp, err = n.SpaceOf(ctx, c.TargetID); err == nil {
				v = s.spaceOut(sp, quire.LevelNone)
			}
		}
		if err != nil && !quire.IsNotFound(err) {
			return out, err
		}
		if v != nil {
			target, _ = json.Marshal(v) // plain structs: cannot fail
		}
	}
	if c.Kind == quire.OnSite {
		out.Site = target
	} else {
		out.Space = target
	}
	out.URLs.Location = s.urls.api("integrations", in.Name, "installations", c.InstallationID, string(c.Kind)+"s", c.TargetID)
	out.URLs.PublicEndpoint = n.PublicEndpoint(in) + "/" + string(c.Kind) + "Installation"
	return out, nil
}

// contentReply answers a space or site installation with a status.
type contentReply struct {
	Status   int
	Location string `header:"Location"`
	Body     contentInstallationJSON
}

// contentListIn is the request of a listing of space or site
// installations.
type contentListIn struct {
	IntegrationPath
	ListParams
	ExternalID string `query:"externalId" maxLength:"256" doc:"Only installations with this external id"`
	Extended   bool   `query:"extended" doc:"Give the whole space or site instead of its id"`
}

// listContent lists an integration's space or site installations.
func (s *Server) listContent(ctx context.Context, in *contentListIn, kind quire.InstallationTarget) (*body[listOf[contentInstallationJSON]], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, l, err := n.ContentInstallations(ctx, userFrom(ctx), in.IntegrationName, kind, in.ExternalID, in.page())
	if err != nil {
		return nil, err
	}
	out, err := listJSONOrErr(l, func(c *quire.ContentInstallation) (contentInstallationJSON, error) {
		return s.contentInstallationOut(ctx, n, got, c, in.Extended)
	})
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

func (s *Server) listSpaceInstallations(ctx context.Context, in *contentListIn) (*body[listOf[contentInstallationJSON]], error) {
	return s.listContent(ctx, in, quire.OnSpace)
}

func (s *Server) listSiteInstallations(ctx context.Context, in *contentListIn) (*body[listOf[contentInstallationJSON]], error) {
	return s.listContent(ctx, in, quire.OnSite)
}

// installOn installs on a space or site.
func (s *Server) installOn(ctx context.Context, in *InstallationPath, kind quire.InstallationTarget, targetID string, extended bool) (*contentReply, error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, c, err := n.InstallOn(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID, kind, targetID)
	if err != nil {
		return nil, err
	}
	out, err := s.contentInstallationOut(ctx, n, got, c, extended)
	if err != nil {
		return nil, err
	}
	return &contentReply{Status: http.StatusCreated, Location: out.URLs.Location, Body: out}, nil
}

func (s *Server) installOnSpace(ctx context.Context, in *struct {
	InstallationPath
	Extended bool `query:"extended" doc:"Give the whole space instead of its id"`
	Body     struct {
		Space string `json:"space" minLength:"1" maxLength:"64" doc:"Id of the space to install the integration on"`
	}
}) (*contentReply, error) {
	return s.installOn(ctx, &in.InstallationPath, quire.OnSpace, in.Body.Space, in.Extended)
}

func (s *Server) installOnSite(ctx context.Context, in *struct {
	InstallationPath
	Extended bool `query:"extended" doc:"Give the whole site instead of its id"`
	Body     struct {
		SiteID string `json:"siteId" minLength:"1" maxLength:"64" doc:"Id of the site to install the integration on"`
	}
}) (*contentReply, error) {
	return s.installOn(ctx, &in.InstallationPath, quire.OnSite, in.Body.SiteID, in.Extended)
}

// SpaceInstallationPath names a space installation.
type SpaceInstallationPath struct {
	InstallationPath
	SpaceID string `path:"spaceId" minLength:"1" maxLength:"64" doc:"Id of the space"`
}

// SiteInstallationPath names a site installation.
type SiteInstallationPath struct {
	InstallationPath
	SiteID string `path:"siteId" minLength:"1" maxLength:"64" doc:"Id of the site"`
}

// getContent answers a space or site installation.
func (s *Server) getContent(ctx context.Context, in *InstallationPath, kind quire.InstallationTarget, targetID string, extended bool) (*body[contentInstallationJSON], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, c, err := n.ContentInstallation(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID, kind, targetID)
	return s.contentBody(ctx, n, got, c, extended, err)
}

// contentBody answers a space or site installation, or err.
func (s *Server) contentBody(ctx context.Context, n *service.Integrations, in *quire.Integration, c *quire.ContentInstallation, extended bool, err error) (*body[contentInstallationJSON], error) {
	if err != nil {
		return nil, err
	}
	out, err := s.contentInstallationOut(ctx, n, in, c, extended)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

func (s *Server) getSpaceInstallation(ctx context.Context, in *struct {
	SpaceInstallationPath
	Extended bool `query:"extended" doc:"Give the whole space instead of its id"`
}) (*body[contentInstallationJSON], error) {
	return s.getContent(ctx, &in.InstallationPath, quire.OnSpace, in.SpaceID, in.Extended)
}

func (s *Server) getSiteInstallation(ctx context.Context, in *struct {
	SiteInstallationPath
	Extended bool `query:"extended" doc:"Give the whole site instead of its id"`
}) (*body[contentInstallationJSON], error) {
	return s.getContent(ctx, &in.InstallationPath, quire.OnSite, in.SiteID, in.Extended)
}

// contentUpdateIn is the body of a change of a space or site
// installation.
type contentUpdateIn struct {
	ExternalIDs   *[]string      `json:"externalIds,omitempty" maxItems:"5"`
	Configuration map[string]any `json:"configuration,omitempty" doc:"Configuration, checked against the integration's space or site configuration"`
}

// updateContent changes a space or site installation.
func (s *Server) updateContent(ctx context.Context, in *InstallationPath, kind quire.InstallationTarget, targetID string, b contentUpdateIn, extended bool) (*body[contentInstallationJSON], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, c, err := n.UpdateContentInstallation(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID, kind, targetID,
		service.ContentUpdate{ExternalIDs: b.ExternalIDs, Configuration: b.Configuration})
	return s.contentBody(ctx, n, got, c, extended, err)
}

func (s *Server) updateSpaceInstallation(ctx context.Context, in *struct {
	SpaceInstallationPath
	Extended bool `query:"extended" doc:"Give the whole space instead of its id"`
	Body     contentUpdateIn
}) (*body[contentInstallationJSON], error) {
	return s.updateContent(ctx, &in.InstallationPath, quire.OnSpace, in.SpaceID, in.Body, in.Extended)
}

func (s *Server) updateSiteInstallation(ctx context.Context, in *struct {
	SiteInstallationPath
	Extended bool `query:"extended" doc:"Give the whole site instead of its id"`
	Body     contentUpdateIn
}) (*body[contentInstallationJSON], error) {
	return s.updateContent(ctx, &in.InstallationPath, quire.OnSite, in.SiteID, in.Body, in.Extended)
}

// uninstallFrom removes a space or site installation.
func (s *Server) uninstallFrom(ctx context.Context, in *InstallationPath, kind quire.InstallationTarget, targetID string) (*statusOnly, error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	ok, err := n.UninstallFrom(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID, kind, targetID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) uninstallFromSpace(ctx context.Context, in *SpaceInstallationPath) (*statusOnly, error) {
	return s.uninstallFrom(ctx, &in.InstallationPath, quire.OnSpace, in.SpaceID)
}

func (s *Server) uninstallFromSite(ctx context.Context, in *SiteInstallationPath) (*statusOnly, error) {
	return s.uninstallFrom(ctx, &in.InstallationPath, quire.OnSite, in.SiteID)
}
