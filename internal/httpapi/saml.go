package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// samlNotConfigured stands in for the SSO URL of a provider created
// without one: the published shape requires a URI, and the provider is
// pending until an admin sets it.
const samlNotConfigured = "about:blank"

// samlProviderJSON is the OrganizationSAMLProvider object.
type samlProviderJSON struct {
	Object      string          `json:"object" enum:"saml-provider"`
	ID          string          `json:"id"`
	Label       string          `json:"label" minLength:"1" maxLength:"30"`
	SSOURL      string          `json:"ssoURL" format:"uri" maxLength:"2048"`
	EntityID    string          `json:"entityID" maxLength:"1024"`
	Certificate string          `json:"certificate" maxLength:"10000"`
	DefaultTeam *teamJSON       `json:"defaultTeam,omitempty"`
	DefaultRole *string         `json:"defaultRole" nullable:"true" enum:"admin,create,edit,review,comment,read"`
	CreatedAt   string          `json:"createdAt" format:"date-time"`
	Status      string          `json:"status" enum:"active,pending" doc:"pending until the entity id, certificate and SSO URL are all set"`
	Service     samlServiceJSON `json:"service"`
	URLs        locationURLs    `json:"urls"`
	// IDPInitiated is Quire's own: whether sign-ins the identity
	// provider starts are accepted.
	IDPInitiated bool `json:"idpInitiated" doc:"Whether sign-ins started by the identity provider are accepted (Quire)"`
}

// samlServiceJSON is what the identity provider is configured with.
type samlServiceJSON struct {
	ACSURL   string `json:"acsURL" format:"uri" doc:"Assertion Consumer Service (ACS) URL"`
	StartURL string `json:"startURL" format:"uri" doc:"Where a sign-in through this provider starts"`
	EntityID string `json:"entityID" maxLength:"1024" doc:"The service provider's entity id, also its metadata URL"`
}

// locationURLs holds an object's API URL.
type locationURLs struct {
	Location string `json:"location" format:"uri"`
}

// spEndpoints are the service provider's addresses for a provider.
func (s *Server) spEndpoints(providerID string) service.SPEndpoints {
	return service.SPEndpoints{
		EntityID: s.urls.join("/sso/saml", []string{providerID, "metadata"}),
		ACS:      s.urls.join("/sso/saml", []string{providerID, "acs"}),
		Start:    s.urls.join("/sso/saml", []string{providerID, "login"}),
	}
}

// samlProviderOut converts a provider, with its default team.
func (s *Server) samlProviderOut(ctx context.Context, p *quire.SAMLProvider) (samlProviderJSON, error) {
	ep := s.spEndpoints(p.ID)
	out := samlProviderJSON{Object: "saml-provider", ID: p.ID, Label: p.Label, SSOURL: p.SSOURL,
		EntityID: p.EntityID, Certificate: p.Certificate, DefaultRole: roleOrNull(p.DefaultRole),
		CreatedAt: timestamp(p.CreatedAt), Status: "pending", IDPInitiated: p.IDPInitiated,
		Service: samlServiceJSON{ACSURL: ep.ACS, StartURL: ep.Start, EntityID: ep.EntityID},
		URLs:    locationURLs{Location: s.urls.api("orgs", p.OrgID, "saml", p.ID)}}
	if p.Active() {
		out.Status = "active"
	}
	if out.SSOURL == "" {
		out.SSOURL = samlNotConfigured
	}
	if p.DefaultTeam != "" {
		t, err := s.svc.Team(ctx, p.OrgID, p.DefaultTeam)
		if err != nil && !quire.IsNotFound(err) {
			return out, err
		}
		if t != nil {
			tj := teamOut(t, levelFrom(ctx))
			out.DefaultTeam = &tj
		}
	}
	return out, nil
}

// SAMLProviderPath names a SAML provider of an organization.
type SAMLProviderPath struct {
	OrgPath
	SAMLProviderID string `path:"samlProviderId" maxLength:"64"`
}

// samlProviderCreate is the body of POST /orgs/{organizationId}/saml.
type samlProviderCreate struct {
	Label        string           `json:"label" minLength:"1" maxLength:"30"`
	EntityID     *string          `json:"entityID,omitempty" maxLength:"1024"`
	Certificate  *string          `json:"certificate,omitempty" maxLength:"10000" doc:"PEM X.509 certificate the identity provider signs with"`
	SSOURL       *string          `json:"ssoURL,omitempty" format:"uri" maxLength:"2048"`
	DefaultTeam  *string          `json:"defaultTeam,omitempty" maxLength:"64"`
	DefaultRole  nullable[string] `json:"defaultRole,omitempty" enum:"admin,create,edit,review,comment,read"`
	IDPInitiated *bool            `json:"idpInitiated,omitempty" doc:"Accept sign-ins started by the identity provider (Quire)"`
}

// samlProviderPatch is the body of PATCH /orgs/{organizationId}/saml/{samlProviderId}.
type samlProviderPatch struct {
	Label        *string          `json:"label,omitempty" minLength:"1" maxLength:"30"`
	EntityID     *string          `json:"entityID,omitempty" maxLength:"1024"`
	Certificate  *string          `json:"certificate,omitempty" maxLength:"10000" doc:"PEM X.509 certificate the identity provider signs with"`
	SSOURL       *string          `json:"ssoURL,omitempty" format:"uri" maxLength:"2048"`
	DefaultTeam  *string          `json:"defaultTeam,omitempty" maxLength:"64"`
	DefaultRole  nullable[string] `json:"defaultRole,omitempty" enum:"admin,create,edit,review,comment,read"`
	IDPInitiated *bool            `json:"idpInitiated,omitempty" doc:"Accept sign-ins started by the identity provider (Quire)"`
}

// input converts the body for the service.
func (b samlProviderPatch) input() service.SAMLProviderInput {
	in := service.SAMLProviderInput{Label: b.Label, EntityID: b.EntityID, Certificate: b.Certificate,
		SSOURL: b.SSOURL, DefaultTeam: b.DefaultTeam, IDPInitiated: b.IDPInitiated}
	if in.SSOURL != nil && *in.SSOURL == samlNotConfigured {
		// A provider read back and sent again: still no SSO URL.
		none := ""
		in.SSOURL = &none
	}
	if b.DefaultRole.Set {
		r := quire.Role(b.DefaultRole.Value)
		in.DefaultRole = &r
	}
	return in
}

func (s *Server) listSAMLProviders(ctx context.Context, in *struct {
	OrgPath
	ListParams
}) (*body[listOf[samlProviderJSON]], error) {
	a, err := s.saml.get()
	if err != nil {
		return nil, err
	}
	l, err := a.Providers(ctx, in.OrganizationID, in.page())
	if err != nil {
		return nil, err
	}
	out := listJSON(l, func(p *quire.SAMLProvider) samlProviderJSON { return samlProviderJSON{} })
	for i, p := range l.Items {
		if out.Items[i], err = s.samlProviderOut(ctx, p); err != nil {
			return nil, err
		}
	}
	return reply(out), nil
}

// createdSAMLProvider is the answer of a create: the provider and its
// Location.
type createdSAMLProvider struct {
	Location string `header:"Location"`
	Body     samlProviderJSON
}

func (s *Server) createSAMLProvider(ctx context.Context, in *struct {
	OrgPath
	Body samlProviderCreate
}) (*createdSAMLProvider, error) {
	a, err := s.saml.get()
	if err != nil {
		return nil, err
	}
	b := in.Body
	p, err := a.CreateProvider(ctx, in.OrganizationID, samlProviderPatch{Label: &b.Label, EntityID: b.EntityID,
		Certificate: b.Certificate, SSOURL: b.SSOURL, DefaultTeam: b.DefaultTeam, DefaultRole: b.DefaultRole,
		IDPInitiated: b.IDPInitiated}.input())
	if err != nil {
		return nil, err
	}
	out, err := s.samlProviderOut(ctx, p)
	if err != nil {
		return nil, err
	}
	return &createdSAMLProvider{Location: out.URLs.Location, Body: out}, nil
}

func (s *Server) getSAMLProvider(ctx context.Context, in *SAMLProviderPath) (*body[samlProviderJSON], error) {
	a, err := s.saml.get()
	if err != nil {
		return nil, err
	}
	p, err := a.Provider(ctx, in.OrganizationID, in.SAMLProviderID)
	if err != nil {
		return nil, err
	}
	out, err := s.samlProviderOut(ctx, p)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

func (s *Server) updateSAMLProvider(ctx context.Context, in *struct {
	SAMLProviderPath
	Body samlProviderPatch
}) (*body[samlProviderJSON], error) {
	a, err := s.saml.get()
	if err != nil {
		return nil, err
	}
	p, err := a.UpdateProvider(ctx, in.OrganizationID, in.SAMLProviderID, in.Body.input())
	if err != nil {
		return nil, err
	}
	out, err := s.samlProviderOut(ctx, p)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

func (s *Server) deleteSAMLProvider(ctx context.Context, in *SAMLProviderPath) (*statusOnly, error) {
	a, err := s.saml.get()
	if err != nil {
		return nil, err
	}
	ok, err := a.DeleteProvider(ctx, in.OrganizationID, in.SAMLProviderID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}
