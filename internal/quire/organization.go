package quire

import (
	"context"
	"time"
)

// Organization owns members, teams, collections and spaces.
type Organization struct {
	ID            string
	Title         string
	CreatedAt     time.Time
	EmailDomains  []string
	Hostname      string
	Type          string // business or community
	UseCase       string
	CommunityType string
	DefaultRole   Role // "" means guest (null)
	DefaultSite   string
	SSO           bool
	AI            bool
	InviteLinks   bool
	Plan          string
	LogoURL       string
	MergeRules    MergeRules
}

// MergeRules decide what a change request needs before it merges.
type MergeRules struct {
	Type  string // inherit (spaces only), rules or none
	Rules []MergeRule
}

// MergeRule is one merge rule; Users is set for the reviewer rules and
// Expression for custom.
type MergeRule struct {
	Rule       string
	Users      []string
	Expression string
}

// OrganizationUpdate holds the fields a PATCH may change; nil keeps a field.
type OrganizationUpdate struct {
	Title        *string
	EmailDomains *[]string
	Hostname     *string
	DefaultRole  *Role // pointer to "" clears it (guest)
	DefaultSite  *string
	LogoURL      *string
	SSO          *bool
	AI           *bool
	InviteLinks  *bool
	MergeRules   *MergeRules
}

// Invite is an invite link into an organization.
type Invite struct {
	ID        string
	OrgID     string
	Role      Role
	CreatedAt time.Time
}

// OrganizationStore persists organizations and invite links.
type OrganizationStore interface {
	// CreateOrganization stores a new organization.
	CreateOrganization(ctx context.Context, o *Organization) error
	// Organization returns an organization by id. Returns ENOTFOUND.
	Organization(ctx context.Context, id string) (*Organization, error)
	// UpdateOrganization applies upd and returns the result. Returns ENOTFOUND.
	UpdateOrganization(ctx context.Context, id string, upd OrganizationUpdate) (*Organization, error)
	// OrganizationsForUser lists the organizations a user is a member of,
	// leaving out those where the membership is disabled,
	// oldest membership first.
	OrganizationsForUser(ctx context.Context, userID string, p Page) (*List[*Organization], error)
	// OrganizationsForEmailDomain lists organizations allowing the domain.
	OrganizationsForEmailDomain(ctx context.Context, domain string) ([]*Organization, error)
	// CreateInvite stores an invite link.
	CreateInvite(ctx context.Context, inv *Invite) error
	// DeleteInvite removes an invite link; it reports whether one existed.
	DeleteInvite(ctx context.Context, orgID, id string) (bool, error)
}
