package quire

import (
	"context"
	"encoding/json"
	"time"
)

// IntegrationVisibility says who sees an integration: everyone (public),
// those who know its name (unlisted), or its organization's members
// (private).
type IntegrationVisibility string

// Integration visibilities.
const (
	IntegrationPublic   IntegrationVisibility = "public"
	IntegrationUnlisted IntegrationVisibility = "unlisted"
	IntegrationPrivate  IntegrationVisibility = "private"
)

// IntegrationManifest is what a publication of an integration declares:
// the published PublishIntegration fields but the script, the icon and the
// organization. Blocks, content sources, external links, configurations
// and the content security policy are kept as the JSON they were given.
type IntegrationManifest struct {
	Runtime               string                `json:"runtime,omitempty"`
	Title                 string                `json:"title"`
	Description           string                `json:"description"`
	Summary               string                `json:"summary,omitempty"`
	PreviewImages         []string              `json:"previewImages,omitempty"`
	Visibility            IntegrationVisibility `json:"visibility"`
	Target                string                `json:"target"`
	Scopes                []string              `json:"scopes"`
	Categories            []string              `json:"categories"`
	Blocks                json.RawMessage       `json:"blocks,omitempty"`
	ContentSources        json.RawMessage       `json:"contentSources,omitempty"`
	ExternalLinks         json.RawMessage       `json:"externalLinks,omitempty"`
	Configurations        IntegrationConfigs    `json:"configurations,omitempty"`
	Secrets               map[string]string     `json:"secrets,omitempty"`
	ContentSecurityPolicy json.RawMessage       `json:"contentSecurityPolicy,omitempty"`
	// BlockDomains are the hosts of the blocks' unfurled URLs, for the
	// blockDomain filter.
	BlockDomains []string `json:"blockDomains,omitempty"`
	// HasBlocks and HasContentSources say whether it declares any.
	HasBlocks         bool `json:"hasBlocks,omitempty"`
	HasContentSources bool `json:"hasContentSources,omitempty"`
}

// IntegrationConfigs are the configuration schemas of the three kinds of
// installation, each a JSON Schema-like object; nil when not declared.
type IntegrationConfigs struct {
	Account json.RawMessage `json:"account,omitempty"`
	Space   json.RawMessage `json:"space,omitempty"`
	Site    json.RawMessage `json:"site,omitempty"`
}

// HasScope reports whether the manifest declares a scope.
func (m *IntegrationManifest) HasScope(scope string) bool {
	for _, s := range m.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Integration is an integration published by an organization, known by a
// name unique on the server. Its script runs on the events of its
// installations.
type Integration struct {
	ID    string
	Name  string
	OrgID string
	// UserID is the user the integration acts as with its tokens: what it
	// writes is written by that user.
	UserID string
	// Version counts the publications, 1 for the first.
	Version  int64
	Manifest IntegrationManifest
	Script   string
	// Icon is the icon's bytes, base64 as published; "" for none.
	Icon string
	// SigningSecret signs what is sent on its behalf.
	SigningSecret string
	// DevTunnel, when set, is where events go in development mode; DevAll
	// sends every event there, not only those of the owning organization.
	DevTunnel string
	DevAll    bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// IntegrationFilter narrows a listing of integrations.
type IntegrationFilter struct {
	// Viewer is the user listing: besides the public integrations they
	// see every integration of the organizations they are members of.
	Viewer string
	// InstalledIn, when set, keeps the integrations installed in that
	// organization.
	InstalledIn string
	// SpaceID, when set, keeps the integrations installed on that space.
	InstalledOnSpace string
	Search           string
	Category         string
	BlockDomain      string
	Blocks           *bool
	ContentSources   *bool
	Owner            string
	Scope            string
	Target           string
}

// Installation statuses and selections.
const (
	InstallationActive  = "active"
	InstallationPending = "pending"
	InstallationPaused  = "paused"
	SelectionAll        = "all"
	SelectionSelected   = "selected"
)

// IntegrationInstallation is an integration installed in an organization.
type IntegrationInstallation struct {
	ID            string
	IntegrationID string
	OrgID         string
	Status        string
	// SpaceSelection and SiteSelection say whether the installation covers
	// every space (site) of the organization or those it was installed on.
	SpaceSelection string
	SiteSelection  string
	Configuration  map[string]any
	ExternalIDs    []string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// InstallationTarget names the kind of content an installation was
// installed on.
type InstallationTarget string

// Kinds of content installations.
const (
	OnSpace InstallationTarget = "space"
	OnSite  InstallationTarget = "site"
)

// ContentInstallation is an installation set up on one space or site.
type ContentInstallation struct {
	InstallationID string
	IntegrationID  string
	Kind           InstallationTarget
	TargetID       string
	Status         string
	Configuration  map[string]any
	ExternalIDs    []string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// IntegrationEventStatus is where the delivery of an event stands:
// pending until a first attempt, then success or failed.
type IntegrationEventStatus string

// Event statuses.
const (
	EventPending IntegrationEventStatus = "pending"
	EventSuccess IntegrationEventStatus = "success"
	EventFailed  IntegrationEventStatus = "failed"
)

// IntegrationEvent is one event sent to an integration, with the outcome
// of its last delivery.
type IntegrationEvent struct {
	ID             string
	IntegrationID  string
	InstallationID string
	// Payload is the published Event object.
	Payload  json.RawMessage
	Status   IntegrationEventStatus
	Logs     []ScriptLog
	Attempts int
	// Space and Site name the space or site installation the event is
	// for, "" when it is not.
	Space     string
	Site      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// IntegrationStore keeps integrations, their installations and events.
type IntegrationStore interface {
	// CreateIntegration stores a new integration; ECONFLICT when the name
	// is taken.
	CreateIntegration(ctx context.Context, in *Integration) error
	// UpdateIntegration writes a new publication of an integration when
	// its stored version is ifVersion; it reports whether it wrote.
	UpdateIntegration(ctx context.Context, in *Integration, ifVersion int64) (bool, error)
	// SetIntegrationDev sets or clears (tunnel "") development mode.
	SetIntegrationDev(ctx context.Context, id, tunnel string, all bool) error
	// Integration returns an integration by name; ENOTFOUND.
	Integration(ctx context.Context, name string) (*Integration, error)
	// IntegrationByID returns an integration by id; ENOTFOUND.
	IntegrationByID(ctx context.Context, id string) (*Integration, error)
	// Integrations lists integrations, by name.
	Integrations(ctx context.Context, f IntegrationFilter, p Page) (*List[*Integration], error)
	// DeleteIntegration deletes an integration, its installations and
	// events; it reports whether it existed.
	DeleteIntegration(ctx context.Context, id string) (bool, error)
	// OrganizationByHostname returns the organization with a hostname;
	// ENOTFOUND.
	OrganizationByHostname(ctx context.Context, hostname string) (*Organization, error)

	// CreateInstallation stores an installation; ECONFLICT when the
	// integration is installed in the organization already.
	CreateInstallation(ctx context.Context, in *IntegrationInstallation) error
	// Installation returns an installation of an integration; ENOTFOUND.
	Installation(ctx context.Context, integrationID, id string) (*IntegrationInstallation, error)
	// InstallationIn returns the installation of an integration in an
	// organization; ENOTFOUND.
	InstallationIn(ctx context.Context, integrationID, orgID string) (*IntegrationInstallation, error)
	// Installations lists an integration's installations, oldest first,
	// those with the external id when it is set.
	Installations(ctx context.Context, integrationID, externalID string, p Page) (*List[*IntegrationInstallation], error)
	// OrgInstallations lists every installation in an organization.
	OrgInstallations(ctx context.Context, orgID string) ([]*IntegrationInstallation, error)
	// UpdateInstallation writes an installation's mutable fields.
	UpdateInstallation(ctx context.Context, in *IntegrationInstallation) error
	// DeleteInstallation deletes an installation and its space and site
	// installations; it reports whether it existed.
	DeleteInstallation(ctx context.Context, id string) (bool, error)

	// PutContentInstallation creates or replaces a space or site
	// installation.
	PutContentInstallation(ctx context.Context, c *ContentInstallation) error
	// ContentInstallation returns a space or site installation;
	// ENOTFOUND.
	ContentInstallation(ctx context.Context, installationID string, kind InstallationTarget, targetID string) (*ContentInstallation, error)
	// ContentInstallations lists the space or site installations of an
	// integration (of one of its installations when installationID is
	// set), those with the external id when it is set, oldest first.
	ContentInstallations(ctx context.Context, integrationID, installationID string, kind InstallationTarget, externalID string, p Page) (*List[*ContentInstallation], error)
	// InstallationTargets returns the ids of the spaces or sites an
	// installation was installed on.
	InstallationTargets(ctx context.Context, installationID string, kind InstallationTarget) ([]string, error)
	// DeleteContentInstallation deletes a space or site installation; it
	// reports whether it existed.
	DeleteContentInstallation(ctx context.Context, installationID string, kind InstallationTarget, targetID string) (bool, error)

	// AddIntegrationEvent stores an event.
	AddIntegrationEvent(ctx context.Context, ev *IntegrationEvent) error
	// IntegrationEvent returns an event of an integration; ENOTFOUND.
	IntegrationEvent(ctx context.Context, integrationID, id string) (*IntegrationEvent, error)
	// IntegrationEvents lists an integration's delivered events (success
	// or failed), newest first.
	IntegrationEvents(ctx context.Context, integrationID string, p Page) (*List[*IntegrationEvent], error)
	// RecordIntegrationEvent writes the outcome of a delivery attempt.
	RecordIntegrationEvent(ctx context.Context, ev *IntegrationEvent) error
}
