package httpapi

import (
	"context"
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// InstallationPath names an installation of an integration.
type InstallationPath struct {
	IntegrationPath
	InstallationID string `path:"installationId" minLength:"1" maxLength:"64" doc:"Id of the installation"`
}

// installationJSON is the IntegrationInstallation object.
type installationJSON struct {
	ID             string         `json:"id"`
	Status         string         `json:"status" enum:"active,pending,paused"`
	SpaceSelection string         `json:"space_selection" enum:"all,selected"`
	SiteSelection  string         `json:"site_selection" enum:"all,selected"`
	Spaces         int            `json:"spaces" doc:"Number of spaces the installation was installed on"`
	Configuration  map[string]any `json:"configuration"`
	ExternalIDs    []string       `json:"externalIds"`
	Target         struct {
		Organization string `json:"organization"`
	} `json:"target"`
	CreatedAt string `json:"createdAt" format:"date-time"`
	UpdatedAt string `json:"updatedAt" format:"date-time"`
	URLs      struct {
		Location       string `json:"location" format:"uri"`
		App            string `json:"app" format:"uri"`
		PublicEndpoint string `json:"publicEndpoint" format:"uri"`
	} `json:"urls"`
}

// installationOut converts an installation.
func (s *Server) installationOut(n *service.Integrations, in *quire.Integration, inst *quire.IntegrationInstallation, spaces int) installationJSON {
	out := installationJSON{ID: inst.ID, Status: inst.Status, SpaceSelection: inst.SpaceSelection,
		SiteSelection: inst.SiteSelection, Spaces: spaces, Configuration: inst.Configuration, ExternalIDs: inst.ExternalIDs,
		CreatedAt: timestamp(inst.CreatedAt), UpdatedAt: timestamp(inst.UpdatedAt)}
	out.Target.Organization = inst.OrgID
	out.URLs.Location = s.urls.api("integrations", in.Name, "installations", inst.ID)
	out.URLs.App = s.urls.app("o", inst.OrgID, "integrations", in.Name)
	out.URLs.PublicEndpoint = n.PublicEndpoint(in) + "/installation"
	return out
}

// installationReply answers an installation with a status.
type installationReply struct {
	Status   int
	Location string `header:"Location"`
	Body     installationJSON
}

func (s *Server) installIntegration(ctx context.Context, in *struct {
	IntegrationPath
	Body struct {
		Organization string `json:"organization" minLength:"1" maxLength:"64" doc:"Id of the organization to install in"`
	}
}) (*installationReply, error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, inst, err := n.Install(ctx, userFrom(ctx), in.IntegrationName, in.Body.Organization)
	if err != nil {
		return nil, err
	}
	out := s.installationOut(n, got, inst, 0)
	return &installationReply{Status: http.StatusCreated, Location: out.URLs.Location, Body: out}, nil
}

func (s *Server) listInstallations(ctx context.Context, in *struct {
	IntegrationPath
	ListParams
	ExternalID string `query:"externalId" maxLength:"256" doc:"Only installations with this external id"`
}) (*body[listOf[installationJSON]], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, l, err := n.Installations(ctx, userFrom(ctx), in.IntegrationName, in.ExternalID, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, func(inst *quire.IntegrationInstallation) installationJSON {
		return s.installationOut(n, got, inst, 0)
	})), nil
}

func (s *Server) getInstallation(ctx context.Context, in *InstallationPath) (*body[installationJSON], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, inst, err := n.Installation(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID)
	if err != nil {
		return nil, err
	}
	return reply(s.installationOut(n, got, inst, 0)), nil
}

func (s *Server) updateInstallation(ctx context.Context, in *struct {
	InstallationPath
	Body struct {
		ExternalIDs    *[]string      `json:"externalIds,omitempty" maxItems:"5"`
		Configuration  map[string]any `json:"configuration,omitempty" doc:"Configuration, checked against the integration's account configuration"`
		SpaceSelection *string        `json:"space_selection,omitempty" enum:"all,selected"`
		SiteSelection  *string        `json:"site_selection,omitempty" enum:"all,selected"`
	}
}) (*body[installationJSON], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	b := in.Body
	got, inst, err := n.UpdateInstallation(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID, service.InstallationUpdate{
		ExternalIDs: b.ExternalIDs, Configuration: b.Configuration, SpaceSelection: b.SpaceSelection, SiteSelection: b.SiteSelection})
	if err != nil {
		return nil, err
	}
	return reply(s.installationOut(n, got, inst, 0)), nil
}

func (s *Server) uninstallIntegration(ctx context.Context, in *InstallationPath) (*statusOnly, error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	ok, err := n.Uninstall(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) createInstallationToken(ctx context.Context, in *InstallationPath) (*body[struct {
	Token string `json:"token"`
}], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	tok, err := n.InstallationToken(ctx, userFrom(ctx), in.IntegrationName, in.InstallationID)
	if err != nil {
		return nil, err
	}
	out := reply(struct {
		Token string `json:"token"`
	}{Token: tok})
	return out, nil
}
