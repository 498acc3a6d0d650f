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

// MergeRulesType says where a merge rules configuration's rules come
// from.
type MergeRulesType string

// Merge rules types.
const (
	MergeRulesInherit MergeRulesType = "inherit" // the organization's rules (spaces only)
	MergeRulesRules   MergeRulesType = "rules"   // the configuration's own rules
	MergeRulesNone    MergeRulesType = "none"    // no rules
)

// MergeRuleKind names a merge rule.
type MergeRuleKind string

// The merge rules that take users or an expression; the others take
// nothing.
const (
	RuleSpecificReviewers      MergeRuleKind = "require_specific_reviewers"        // every listed user reviews
	RuleOneOfSpecificReviewers MergeRuleKind = "require_one_of_specific_reviewers" // one listed user reviews
	RuleAllowBypass            MergeRuleKind = "allow_bypass"                      // listed users may merge anyway
	RuleCustom                 MergeRuleKind = "custom"                            // an expression decides
)

// The merge rules that take nothing.
const (
	RuleAtLeastOneReview   MergeRuleKind = "require_at_least_one_review"        // someone approves
	RuleAllReviewsApproved MergeRuleKind = "require_all_reviews_approved"       // no review asks for changes, none is pending
	RuleAgentReview        MergeRuleKind = "require_agent_review"               // an agent reviews
	RuleUpToDate           MergeRuleKind = "require_up_to_date_change_request"  // main has not moved past it
	RuleSubject            MergeRuleKind = "require_change_request_subject"     // it has a subject
	RuleDescription        MergeRuleKind = "require_change_request_description" // it has a description
)

// MergeRules decide what a change request needs before it merges.
type MergeRules struct {
	Type  MergeRulesType
	Rules []MergeRule
}

// MergeRule is one merge rule; Users is set for the reviewer rules and
// Expression for custom.
type MergeRule struct {
	Rule       MergeRuleKind
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
	// Organizations lists every organization of the server, oldest
	// first; the list is not counted.
	Organizations(ctx context.Context, p Page) (*List[*Organization], error)
	// OrganizationsForEmailDomain lists organizations allowing the domain.
	OrganizationsForEmailDomain(ctx context.Context, domain string) ([]*Organization, error)
	// CreateInvite stores an invite link.
	CreateInvite(ctx context.Context, inv *Invite) error
	// DeleteInvite removes an invite link; it reports whether one existed.
	DeleteInvite(ctx context.Context, orgID, id string) (bool, error)
	// Invites lists an organization's invite links, oldest first.
	Invites(ctx context.Context, orgID string) ([]*Invite, error)
	// Invite returns an invite link by id. Returns ENOTFOUND.
	Invite(ctx context.Context, id string) (*Invite, error)
}
