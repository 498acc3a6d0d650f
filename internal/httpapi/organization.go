package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// orgJSON is the Organization object.
type orgJSON struct {
	Object           string         `json:"object" enum:"organization"`
	ID               string         `json:"id"`
	Title            string         `json:"title" minLength:"2" maxLength:"255"`
	CreatedAt        string         `json:"createdAt" format:"date-time"`
	EmailDomains     []string       `json:"emailDomains"`
	Hostname         string         `json:"hostname,omitempty"`
	Type             string         `json:"type" enum:"business,community"`
	UseCase          string         `json:"useCase,omitempty"`
	CommunityType    string         `json:"communityType,omitempty"`
	DefaultRole      *string        `json:"defaultRole" nullable:"true" enum:"admin,create,edit,review,comment,read"`
	DefaultContent   *sitePointer   `json:"defaultContent,omitempty"`
	SSO              bool           `json:"sso"`
	AI               bool           `json:"ai"`
	InviteLinks      bool           `json:"inviteLinks"`
	Plan             string         `json:"plan"`
	MergeRules       mergeRulesJSON `json:"mergeRules"`
	URLs             orgURLs        `json:"urls"`
	Trial            trialJSON      `json:"trial"`
	InternalNewTrial bool           `json:"internal_isOnNewTrial" doc:"Deprecated. Always true."`
	Permissions      orgPermissions `json:"permissions"`
}

// sitePointer points at a site.
type sitePointer struct {
	Type string `json:"type" enum:"site"`
	Site string `json:"site"`
}

// orgURLs are the URLs of an organization.
type orgURLs struct {
	Location string `json:"location" format:"uri"`
	App      string `json:"app" format:"uri"`
	Logo     string `json:"logo,omitempty" format:"uri"`
}

// trialJSON is the trial state; self-hosted organizations have none.
type trialJSON struct {
	Status string `json:"status" enum:"notapplicable,none,active,ended,expired"`
}

// orgPermissions are the organization flags for the caller.
type orgPermissions struct {
	View                bool `json:"view"`
	Admin               bool `json:"admin"`
	OwnTeam             bool `json:"ownTeam"`
	CreateContent       bool `json:"createContent"`
	CreateOpenAPISpec   bool `json:"createOpenAPISpec"`
	IngestConversations bool `json:"ingestConversations"`
	ViewBilling         bool `json:"viewBilling"`
	ListMembers         bool `json:"listMembers"`
	ListTeams           bool `json:"listTeams"`
	ListIntegrations    bool `json:"listIntegrations"`
	ListInstallations   bool `json:"listInstallations"`
	InstallIntegration  bool `json:"installIntegration"`
}

// orgOut converts an organization for a caller at a level.
func (s *Server) orgOut(o *quire.Organization, l quire.Level) orgJSON {
	p := quire.OrganizationPermissionsFor(l)
	out := orgJSON{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: timestamp(o.CreatedAt),
		EmailDomains: o.EmailDomains, Hostname: o.Hostname, Type: o.Type, UseCase: o.UseCase,
		CommunityType: o.CommunityType, DefaultRole: roleOrNull(o.DefaultRole), SSO: o.SSO, AI: o.AI,
		InviteLinks: o.InviteLinks, Plan: o.Plan, MergeRules: mergeRulesOut(o.MergeRules),
		URLs:             orgURLs{Location: s.urls.api("orgs", o.ID), App: s.urls.app("o", o.ID), Logo: asURI(o.LogoURL)},
		Trial:            trialJSON{Status: "notapplicable"},
		InternalNewTrial: true,
		Permissions: orgPermissions{View: p.View, Admin: p.Admin, OwnTeam: p.OwnTeam, CreateContent: p.CreateContent,
			CreateOpenAPISpec: p.CreateOpenAPISpec, IngestConversations: p.IngestConversations, ViewBilling: p.ViewBilling,
			ListMembers: p.ListMembers, ListTeams: p.ListTeams, ListIntegrations: p.ListIntegrations,
			ListInstallations: p.ListInstallations, InstallIntegration: p.InstallIntegration},
	}
	if out.EmailDomains == nil {
		out.EmailDomains = []string{}
	}
	if o.DefaultSite != "" {
		out.DefaultContent = &sitePointer{Type: "site", Site: o.DefaultSite}
	}
	return out
}

// OrgPath names an organization.
type OrgPath struct {
	OrganizationID string `path:"organizationId"`
}

func (s *Server) listOrgs(ctx context.Context, in *struct{ ListParams }) (*body[listOf[orgJSON]], error) {
	l, err := s.svc.Organizations(ctx, userFrom(ctx), in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, func(v service.OrgView) orgJSON { return s.orgOut(v.Org, v.Level) })), nil
}

func (s *Server) getOrg(ctx context.Context, in *OrgPath) (*body[orgJSON], error) {
	o, err := s.svc.Organization(ctx, in.OrganizationID)
	if err != nil {
		return nil, err
	}
	return reply(s.orgOut(o, levelFrom(ctx))), nil
}

// orgPatch is the body of PATCH /orgs/{organizationId}.
type orgPatch struct {
	Title          *string               `json:"title,omitempty" minLength:"2" maxLength:"255"`
	EmailDomains   *[]string             `json:"emailDomains,omitempty" maxItems:"100"`
	Hostname       *string               `json:"hostname,omitempty" minLength:"3" maxLength:"32" pattern:"^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$"`
	DefaultRole    nullable[string]      `json:"defaultRole,omitempty" enum:"admin,create,edit,review,comment,read"`
	DefaultContent nullable[sitePointer] `json:"defaultContent,omitempty"`
	Logo           nullable[string]      `json:"logo,omitempty" format:"uri" maxLength:"2048" pattern:"^[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s]+$" patternDescription:"an absolute URL"`
	SSO            *bool                 `json:"sso,omitempty"`
	AI             *bool                 `json:"ai,omitempty"`
	InviteLinks    *bool                 `json:"inviteLinks,omitempty"`
	MergeRules     *mergeRulesInput      `json:"mergeRules,omitempty"`
}

func (s *Server) updateOrg(ctx context.Context, in *struct {
	OrgPath
	Body orgPatch
}) (*body[orgJSON], error) {
	b := in.Body
	upd := quire.OrganizationUpdate{Title: b.Title, EmailDomains: b.EmailDomains, Hostname: b.Hostname,
		SSO: b.SSO, AI: b.AI, InviteLinks: b.InviteLinks}
	if b.DefaultRole.Set {
		r := quire.Role(b.DefaultRole.Value)
		upd.DefaultRole = &r
	}
	if b.DefaultContent.Set {
		site := b.DefaultContent.Value.Site
		upd.DefaultSite = &site
	}
	upd.LogoURL = b.Logo.ptr()
	if b.MergeRules != nil {
		m := b.MergeRules.domain()
		upd.MergeRules = &m
	}
	o, err := s.svc.UpdateOrganization(ctx, in.OrganizationID, upd)
	if err != nil {
		return nil, err
	}
	return reply(s.orgOut(o, levelFrom(ctx))), nil
}

func (s *Server) deleteInvite(ctx context.Context, in *struct {
	OrgPath
	InviteID string `path:"inviteId"`
}) (*statusOnly, error) {
	ok, err := s.svc.DeleteInvite(ctx, in.OrganizationID, in.InviteID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) joinOrg(ctx context.Context, in *OrgPath) (*statusOnly, error) {
	if err := s.svc.Join(ctx, userFrom(ctx), in.OrganizationID); err != nil {
		return nil, err
	}
	return noContent(), nil
}

// orgsForDomain is the body of GET /email-domains/{emailDomain}/orgs.
type orgsForDomain struct {
	Organizations []orgJSON `json:"organizations"`
}

func (s *Server) orgsForEmailDomain(ctx context.Context, in *struct {
	EmailDomain string `path:"emailDomain" maxLength:"253"`
}) (*body[orgsForDomain], error) {
	views, err := s.svc.OrganizationsForEmailDomain(ctx, userFrom(ctx), in.EmailDomain)
	if err != nil {
		return nil, err
	}
	out := orgsForDomain{Organizations: []orgJSON{}}
	for _, v := range views {
		out.Organizations = append(out.Organizations, s.orgOut(v.Org, v.Level))
	}
	return reply(out), nil
}

// ssoLogins is the body of GET /orgs/{organizationId}/sso.
type ssoLogins struct {
	Items []ssoLogin `json:"items"`
}

// ssoLogin is one SSO provider a member can sign in with.
type ssoLogin struct {
	ID       string `json:"id"`
	Label    string `json:"label" minLength:"1" maxLength:"30"`
	StartURL string `json:"startURL" format:"uri"`
}

func (s *Server) listSSOLogins(ctx context.Context, in *OrgPath) (*body[ssoLogins], error) {
	out := ssoLogins{Items: []ssoLogin{}}
	a, err := s.saml.get()
	if err != nil {
		// A server without SAML has no provider to sign in with.
		return reply(out), nil
	}
	logins, err := a.Logins(ctx, in.OrganizationID)
	if err != nil {
		return nil, err
	}
	for _, l := range logins {
		out.Items = append(out.Items, ssoLogin{ID: l.ID, Label: l.Label, StartURL: s.spEndpoints(l.ID).Start})
	}
	return reply(out), nil
}
