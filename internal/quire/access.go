package quire

import "context"

// GrantTarget names the kind of content a grant is on.
type GrantTarget string

// Grant targets.
const (
	GrantSpace      GrantTarget = "space"      // a grant on a space
	GrantCollection GrantTarget = "collection" // a grant on a collection
)

// Principal names the kind of holder of a grant.
type Principal string

// Grant principals.
const (
	PrincipalUser Principal = "user" // a user, directly
	PrincipalTeam Principal = "team" // every member of a team
)

// Grant gives a user or a team a role on a space or collection.
type Grant struct {
	TargetKind    GrantTarget
	TargetID      string
	PrincipalKind Principal
	PrincipalID   string
	Role          Role
}

// Facts are what the store knows about a user's relation to a space or
// collection; Level turns them into an access level. They are gathered in
// one place so that every endpoint resolves access the same way.
type Facts struct {
	OrgID    string
	Member   bool // the user is a member of the owning organization
	Disabled bool // the membership is disabled
	OrgRole  Role // the member's role, "" for a guest
	// Grant is the highest role granted to the user or their teams on the
	// target or on any collection above it ("" if none).
	Grant Role
	// Defaults is the default-level chain from the target up through its
	// collections, nearest first.
	Defaults   []DefaultLevel
	OrgDefault Role // the organization's default role, "" for none
}

// Level resolves the effective access level: the highest of the member's
// organization role, their grants, and the default-level chain. A
// non-member sees nothing, and neither does a disabled member, whatever
// their role and grants; a guest gets only their grants.
func (f Facts) Level() Level {
	if !f.Member || f.Disabled {
		return LevelNone
	}
	l := MaxLevel(LevelGuest, f.OrgRole.Level(), f.Grant.Level())
	if f.OrgRole == "" {
		return l
	}
	return MaxLevel(l, f.DefaultChain())
}

// DefaultChain walks the default levels: the first concrete role wins, a
// DefaultNone stops the walk, and inherit at the top falls back to the
// organization's default role.
func (f Facts) DefaultChain() Level {
	for _, d := range f.Defaults {
		switch d {
		case DefaultInherit:
			continue
		case DefaultNone:
			return LevelNone
		default:
			return d.Role().Level()
		}
	}
	return f.OrgDefault.Level()
}

// AccessStore answers access questions and stores grants.
type AccessStore interface {
	// SpaceFacts gathers the facts about userID on a space. Returns
	// ENOTFOUND if the space does not exist.
	SpaceFacts(ctx context.Context, spaceID, userID string) (Facts, error)
	// SpaceWithFacts returns a space, deleted or not, with the facts about
	// userID on it. Returns ENOTFOUND if the space does not exist.
	SpaceWithFacts(ctx context.Context, spaceID, userID string) (*Space, Facts, error)
	// CollectionFacts gathers the facts about userID on a collection.
	// Returns ENOTFOUND if the collection does not exist.
	CollectionFacts(ctx context.Context, collectionID, userID string) (Facts, error)
	// CollectionsFacts gathers the facts about userID on many collections
	// at once, keyed by collection id; ids that are not collections are
	// absent.
	CollectionsFacts(ctx context.Context, ids []string, userID string) (map[string]Facts, error)
	// OrganizationFacts gathers the facts about userID on an organization.
	// Returns ENOTFOUND if the organization does not exist.
	OrganizationFacts(ctx context.Context, orgID, userID string) (Facts, error)
	// RootFacts gathers the facts a space at the organization's root
	// inherits: those of OrganizationFacts and the organization's default
	// role. Returns ENOTFOUND if the organization does not exist.
	RootFacts(ctx context.Context, orgID, userID string) (Facts, error)
	// SetGrant creates or replaces a grant.
	SetGrant(ctx context.Context, g Grant) error
	// RemoveGrant deletes a grant; it reports whether one existed.
	RemoveGrant(ctx context.Context, g Grant) (bool, error)
	// GrantRoles returns, for each target, the highest role granted on it
	// to the user directly or through a team; targets without one are
	// absent.
	GrantRoles(ctx context.Context, userID string, targetKind GrantTarget, targetIDs []string) (map[string]Role, error)
	// Grants lists the grants on a target.
	Grants(ctx context.Context, targetKind GrantTarget, targetID string) ([]Grant, error)
	// SubtreeGrants lists the grants on a collection and on every
	// collection and space, deleted or not, below it.
	SubtreeGrants(ctx context.Context, collectionID string) ([]Grant, error)
}

// Integration scopes that open content to an installation's tokens.
const (
	ScopeSpaceContentRead   = "space:content:read"
	ScopeSpaceContentWrite  = "space:content:write"
	ScopeSpaceMetadataRead  = "space:metadata:read"
	ScopeSpaceMetadataWrite = "space:metadata:write"
	ScopeSiteMetadataRead   = "site:metadata:read"
)

// IntegrationGrant is what a caller holding an integration's token may
// reach. An installation token reaches the spaces its installation
// covers, at the role its scopes give; the integration's own token
// (InstallationID "") reaches the integration's installations and no
// content.
type IntegrationGrant struct {
	IntegrationID   string
	IntegrationName string
	InstallationID  string
	// OrgID is the organization of the installation.
	OrgID  string
	Scopes []string
	// AllSpaces covers every space of the organization; otherwise Spaces
	// lists those covered. AllSites and Sites do the same for sites.
	AllSpaces bool
	Spaces    []string
	AllSites  bool
	Sites     []string
}

// has reports whether the grant holds a scope.
func (g *IntegrationGrant) has(scope string) bool {
	for _, s := range g.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// ContentRole is the role the scopes give on covered spaces in the
// checks a service makes beyond the operation's own (see
// IntegrationScopes for what each operation needs): edit with
// space:content:write, which writes content and comments, read with any
// other scope that reaches spaces, none otherwise.
func (g *IntegrationGrant) ContentRole() Role {
	switch {
	case g.has(ScopeSpaceContentWrite):
		return RoleEdit
	case g.Sees(TargetSpace):
		return RoleRead
	}
	return ""
}

// CoversSpace reports whether the installation covers a space of an
// organization.
func (g *IntegrationGrant) CoversSpace(orgID, spaceID string) bool {
	if g.InstallationID == "" || orgID != g.OrgID {
		return false
	}
	if g.AllSpaces {
		return true
	}
	for _, id := range g.Spaces {
		if id == spaceID {
			return true
		}
	}
	return false
}

// CoversSite reports whether the installation covers a site of an
// organization.
func (g *IntegrationGrant) CoversSite(orgID, siteID string) bool {
	if g.InstallationID == "" || orgID != g.OrgID {
		return false
	}
	if g.AllSites {
		return true
	}
	for _, id := range g.Sites {
		if id == siteID {
			return true
		}
	}
	return false
}

// SpaceFacts are the facts of a space of an organization for the grant's
// holder: a guest with the scopes' role on a covered space, a stranger
// to any other.
func (g *IntegrationGrant) SpaceFacts(orgID, spaceID string) Facts {
	role := g.ContentRole()
	if role == "" || !g.CoversSpace(orgID, spaceID) {
		return Facts{OrgID: orgID}
	}
	return Facts{OrgID: orgID, Member: true, Grant: role}
}

// OrgFacts are the facts of an organization for the grant's holder: a
// guest of the installation's organization, a stranger to others.
func (g *IntegrationGrant) OrgFacts(orgID string) Facts {
	return Facts{OrgID: orgID, Member: g.InstallationID != "" && orgID == g.OrgID}
}

// SiteLevel is the level the grant's holder has on a site of an
// organization: read with a scope that reaches sites on a site the
// installation covers, none otherwise.
func (g *IntegrationGrant) SiteLevel(orgID, siteID string) Level {
	if !g.Sees(TargetSite) || !g.CoversSite(orgID, siteID) {
		return LevelNone
	}
	return LevelRead
}
