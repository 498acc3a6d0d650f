package service

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/url"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/fetch"
	"quire/internal/quire"
)

// Defaults of IntegrationOptions left zero.
const (
	// DefaultIntegrationTokenTTL is how long an integration's or
	// installation's token works.
	DefaultIntegrationTokenTTL = time.Hour
	// DefaultIntegrationEventTimeout bounds one delivery of an event.
	DefaultIntegrationEventTimeout = 30 * time.Second
)

// IntegrationOptions configures the integrations service.
type IntegrationOptions struct {
	// BaseURL is the server's public base URL, without /v1: the API
	// endpoint handed to scripts, whose client adds /v1.
	BaseURL string
	// TokenTTL is how long the tokens handed to scripts work.
	TokenTTL time.Duration
	// EventTimeout bounds one delivery of an event.
	EventTimeout time.Duration
}

// Integrations keeps the integrations organizations publish, their
// installations, and the events sent to them: to their script, run by
// the runner, or in development mode to their tunnel, through the
// guarded fetch client.
type Integrations struct {
	s      *Service
	fetch  *fetch.Client
	runner quire.ScriptRunner
	opts   IntegrationOptions
	log    *slog.Logger
	images *lru.Cache[string, IntegrationImages] // by id and version
}

// NewIntegrations returns the integrations service of s. runner runs the
// scripts; when nil, events fail with a log saying so.
func NewIntegrations(s *Service, fetcher *fetch.Client, runner quire.ScriptRunner, opts IntegrationOptions) *Integrations {
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = DefaultIntegrationTokenTTL
	}
	if opts.EventTimeout <= 0 {
		opts.EventTimeout = DefaultIntegrationEventTimeout
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	images, _ := lru.New[string, IntegrationImages](integrationImagesCacheSize) // size > 0 cannot fail
	return &Integrations{s: s, fetch: fetcher, runner: runner, opts: opts, log: s.log, images: images}
}

// PublishInput is a publication of an integration: the PublishIntegration
// fields. Blocks, content sources, external links, configurations and the
// content security policy come as the JSON the request held, already
// checked against their published shapes.
type PublishInput struct {
	Organization string
	Manifest     quire.IntegrationManifest
	Script       string
	Icon         string
}

// integrationViewer returns the user id whose memberships open private
// integrations: none for an integration's token.
func integrationViewer(u *quire.User) string {
	if u == nil || u.Integration != nil {
		return ""
	}
	return u.ID
}

// Publish publishes a new version of an integration of an organization
// (by id or hostname), creating it on its first publication. Only admins
// of the organization publish, and an integration stays with the
// organization that first published it.
func (n *Integrations) Publish(ctx context.Context, u *quire.User, name string, in PublishInput) (*quire.Integration, error) {
	if err := checkManifest(&in.Manifest); err != nil {
		return nil, err
	}
	org, err := n.organization(ctx, in.Organization)
	if err != nil {
		return nil, err
	}
	if err := n.s.requireIntegrationAdmin(ctx, u, org.ID); err != nil {
		return nil, err
	}
	for attempt := 0; attempt < 3; attempt++ {
		cur, err := n.s.store.Integration(ctx, name)
		if quire.IsNotFound(err) {
			created, err := n.create(ctx, org.ID, name, in)
			if quire.ErrorCode(err) == quire.ECONFLICT {
				continue
			}
			return created, err
		}
		if err != nil {
			return nil, err
		}
		if cur.OrgID != org.ID {
			return nil, quire.Errorf(quire.EFORBIDDEN, "the integration %q was published by another organization", name)
		}
		next := *cur
		next.Manifest, next.Script, next.Icon = in.Manifest, in.Script, in.Icon
		next.Version, next.UpdatedAt = cur.Version+1, n.s.Now()
		ok, err := n.s.store.UpdateIntegration(ctx, &next, cur.Version)
		if err != nil {
			return nil, err
		}
		if ok {
			return &next, nil
		}
	}
	return nil, quire.Errorf(quire.ECONFLICT, "the integration %q was published concurrently; publish again", name)
}

// create stores the first publication of an integration, with the user it
// acts as.
func (n *Integrations) create(ctx context.Context, orgID, name string, in PublishInput) (*quire.Integration, error) {
	now := n.s.Now()
	var secret [32]byte
	_, _ = rand.Read(secret[:])
	out := &quire.Integration{ID: quire.NewID(), Name: name, OrgID: orgID, Version: 1, Manifest: in.Manifest,
		Script: in.Script, Icon: in.Icon, SigningSecret: base64.RawURLEncoding.EncodeToString(secret[:]),
		CreatedAt: now, UpdatedAt: now}
	err := n.s.store.WithTx(ctx, func(st quire.Store) error {
		u := &quire.User{ID: quire.NewID(), DisplayName: in.Manifest.Title,
			Email: "integration-" + out.ID + "@integrations.invalid", CreatedAt: now}
		if err := st.CreateUser(ctx, u); err != nil {
			return err
		}
		out.UserID = u.ID
		return st.CreateIntegration(ctx, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// organization returns an organization named by id or hostname.
func (n *Integrations) organization(ctx context.Context, ref string) (*quire.Organization, error) {
	o, err := n.s.store.Organization(ctx, ref)
	if quire.IsNotFound(err) {
		o, err = n.s.store.OrganizationByHostname(ctx, ref)
	}
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("organization")
	}
	return o, err
}

// Get returns an integration the caller may see.
func (n *Integrations) Get(ctx context.Context, u *quire.User, name string) (*quire.Integration, error) {
	in, err := n.s.store.Integration(ctx, name)
	if err != nil {
		return nil, err
	}
	if err := n.s.seeIntegration(ctx, u, in); err != nil {
		return nil, err
	}
	return in, nil
}

// List lists the integrations the caller may see, by name.
func (n *Integrations) List(ctx context.Context, u *quire.User, f quire.IntegrationFilter, p quire.Page) (*quire.List[*quire.Integration], error) {
	f.Viewer = integrationViewer(u)
	return n.s.store.Integrations(ctx, f, p)
}

// ListOnSpace lists the integrations installed on a space: those of the
// organization's installations covering all spaces and those installed
// on it.
func (n *Integrations) ListOnSpace(ctx context.Context, u *quire.User, spaceID string, search string, p quire.Page) (*quire.List[*quire.Integration], error) {
	sp, err := n.s.store.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return n.s.store.Integrations(ctx, quire.IntegrationFilter{Viewer: integrationViewer(u), InstalledIn: sp.OrgID,
		InstalledOnSpace: sp.ID, Search: search}, p)
}

// Admin reports whether the caller administers the integration's
// organization.
func (n *Integrations) Admin(ctx context.Context, u *quire.User, in *quire.Integration) bool {
	return n.s.requireIntegrationAdmin(ctx, u, in.OrgID) == nil
}

// Owner returns the organization that published an integration.
func (n *Integrations) Owner(ctx context.Context, in *quire.Integration) (*quire.Organization, error) {
	return n.s.store.Organization(ctx, in.OrgID)
}

// Unpublish deletes an integration with its installations and events;
// it reports whether there was one the caller could see.
func (n *Integrations) Unpublish(ctx context.Context, u *quire.User, name string) (bool, error) {
	in, err := n.Get(ctx, u, name)
	if quire.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		return false, err
	}
	return n.s.store.DeleteIntegration(ctx, in.ID)
}

// SetDevelopment sends the integration's events to a tunnel URL (those of
// its organization, or all of them), or with tunnel "" back to its
// script.
func (n *Integrations) SetDevelopment(ctx context.Context, u *quire.User, name, tunnel string, all bool) error {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		return err
	}
	if tunnel != "" {
		t, err := url.Parse(tunnel)
		if err != nil || (t.Scheme != "http" && t.Scheme != "https") || t.Host == "" {
			return quire.Invalid("tunnelUrl", "must be an http or https URL")
		}
	}
	return n.s.store.SetIntegrationDev(ctx, in.ID, tunnel, all && tunnel != "")
}
