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
