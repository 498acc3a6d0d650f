package quire

import (
	"context"
	"time"
)

// AuditAction names what an audit event records, as dotted words: the
// kind of thing acted on, then what was done to it.
type AuditAction string

// Audit actions: the operations on an organization whose record its
// admins may need later (who let whom in, who widened what, who changed
// how people sign in).
const (
	// AuditMemberAdded: someone joined the organization (by email
	// domain, invite link, sign-up or single sign-on) or was added.
	AuditMemberAdded AuditAction = "member.added"
	// AuditMemberRemoved: a member was removed.
	AuditMemberRemoved AuditAction = "member.removed"
	// AuditMemberRoleChanged: a member's role changed.
	AuditMemberRoleChanged AuditAction = "member.role_changed"
	// AuditMemberDisabled and AuditMemberEnabled: a member was disabled
	// or enabled again.
	AuditMemberDisabled AuditAction = "member.disabled"
	AuditMemberEnabled  AuditAction = "member.enabled"
	// AuditSpaceVisibilityChanged: a space's visibility changed.
	AuditSpaceVisibilityChanged AuditAction = "space.visibility_changed"
	// AuditSitePublished and AuditSiteUnpublished: a site was published
	// or unpublished.
	AuditSitePublished   AuditAction = "site.published"
	AuditSiteUnpublished AuditAction = "site.unpublished"
	// AuditSiteVisibilityChanged: a site's visibility changed.
	AuditSiteVisibilityChanged AuditAction = "site.visibility_changed"
	// AuditSAMLProviderCreated, Updated and Deleted: the organization's
	// SAML identity providers changed.
	AuditSAMLProviderCreated AuditAction = "saml.provider_created"
	AuditSAMLProviderUpdated AuditAction = "saml.provider_updated"
	AuditSAMLProviderDeleted AuditAction = "saml.provider_deleted"
	// AuditSSOEnforcedChanged: single sign-on was made required or
	// optional for the organization's members.
	AuditSSOEnforcedChanged AuditAction = "sso.enforced_changed"
	// AuditTokenCreated and AuditTokenRevoked: a member created or
	// revoked a personal API token, which reaches this organization as
	// far as the member's role does.
	AuditTokenCreated AuditAction = "token.created"
	AuditTokenRevoked AuditAction = "token.revoked"
	// AuditIntegrationInstalled and AuditIntegrationUninstalled: an
	// integration was installed in or removed from the organization.
	AuditIntegrationInstalled   AuditAction = "integration.installed"
	AuditIntegrationUninstalled AuditAction = "integration.uninstalled"
	// AuditOrgTitleChanged, LogoChanged, DefaultRoleChanged,
	// EmailDomainsChanged, InviteLinksChanged and MergeRulesChanged: one
	// of the organization's own settings changed, from and to what.
	AuditOrgTitleChanged        AuditAction = "organization.title_changed"
	AuditOrgLogoChanged         AuditAction = "organization.logo_changed"
	AuditOrgDefaultRoleChanged  AuditAction = "organization.default_role_changed"
	AuditOrgEmailDomainsChanged AuditAction = "organization.email_domains_changed"
	AuditOrgInviteLinksChanged  AuditAction = "organization.invite_links_changed"
	AuditOrgMergeRulesChanged   AuditAction = "organization.merge_rules_changed"
)

// AuditActions returns every audit action, grouped by what they act on.
func AuditActions() []AuditAction {
	return []AuditAction{AuditMemberAdded, AuditMemberRemoved, AuditMemberRoleChanged, AuditMemberDisabled,
		AuditMemberEnabled, AuditSpaceVisibilityChanged, AuditSitePublished, AuditSiteUnpublished,
		AuditSiteVisibilityChanged, AuditSAMLProviderCreated, AuditSAMLProviderUpdated, AuditSAMLProviderDeleted,
		AuditSSOEnforcedChanged, AuditTokenCreated, AuditTokenRevoked, AuditIntegrationInstalled,
		AuditIntegrationUninstalled, AuditOrgTitleChanged, AuditOrgLogoChanged, AuditOrgDefaultRoleChanged,
		AuditOrgEmailDomainsChanged, AuditOrgInviteLinksChanged, AuditOrgMergeRulesChanged}
}

// Valid reports whether a is a known action.
func (a AuditAction) Valid() bool {
	for _, v := range AuditActions() {
		if v == a {
			return true
		}
	}
	return false
}

// Label is the action as people read it in the audit log.
func (a AuditAction) Label() string {
	switch a {
	case AuditMemberAdded:
		return "Member added"
	case AuditMemberRemoved:
		return "Member removed"
	case AuditMemberRoleChanged:
		return "Member role changed"
	case AuditMemberDisabled:
		return "Member disabled"
	case AuditMemberEnabled:
		return "Member enabled"
	case AuditSpaceVisibilityChanged:
		return "Space visibility changed"
	case AuditSitePublished:
		return "Site published"
	case AuditSiteUnpublished:
		return "Site unpublished"
	case AuditSiteVisibilityChanged:
		return "Site visibility changed"
	case AuditSAMLProviderCreated:
		return "SAML provider created"
	case AuditSAMLProviderUpdated:
		return "SAML provider updated"
	case AuditSAMLProviderDeleted:
		return "SAML provider deleted"
	case AuditSSOEnforcedChanged:
		return "Single sign-on requirement changed"
	case AuditTokenCreated:
		return "API token created"
	case AuditTokenRevoked:
		return "API token revoked"
	case AuditIntegrationInstalled:
		return "Integration installed"
	case AuditIntegrationUninstalled:
		return "Integration uninstalled"
	case AuditOrgTitleChanged:
		return "Organization title changed"
	case AuditOrgLogoChanged:
		return "Organization logo changed"
	case AuditOrgDefaultRoleChanged:
		return "Default role changed"
	case AuditOrgEmailDomainsChanged:
		return "Email domains changed"
	case AuditOrgInviteLinksChanged:
		return "Invite links turned on or off"
	case AuditOrgMergeRulesChanged:
		return "Organization merge rules changed"
	}
	return string(a)
}

// Audit target kinds: what an audit event's TargetID names.
const (
	AuditTargetUser         = "user"
	AuditTargetSpace        = "space"
	AuditTargetSite         = "site"
	AuditTargetSAMLProvider = "saml_provider"
	AuditTargetOrganization = "organization"
	AuditTargetToken        = "token"
	AuditTargetInstallation = "installation"
)

// AuditEvent records that someone did something in an organization. IDs
// ascend in the order events are recorded.
type AuditEvent struct {
	ID    int64
	OrgID string
	// ActorID is the user who acted, "" for the server itself.
	ActorID string
	Action  AuditAction
	// TargetKind and TargetID name what was acted on (AuditTarget*).
	TargetKind string
	TargetID   string
	// Details holds a few facts of the change, such as the old and new
	// role; never nil once read back.
	Details   map[string]string
	CreatedAt time.Time
}

// AuditFilter narrows an organization's audit events; zero fields match
// everything.
type AuditFilter struct {
	Action AuditAction
	// Actor is the user id of who acted.
	Actor string
	// Since keeps events recorded at or after it, Until those recorded
	// before it.
	Since time.Time
	Until time.Time
}

// AuditStore keeps organizations' audit events.
type AuditStore interface {
	// AddAuditEvent records an event; its ID is set, and its CreatedAt
	// when zero.
	AddAuditEvent(ctx context.Context, e *AuditEvent) error
	// AuditEvents lists an organization's events matching f, newest
	// first. The list is Uncounted.
	AuditEvents(ctx context.Context, orgID string, f AuditFilter, p Page) (*List[*AuditEvent], error)
}
