package quire

import (
	"context"
	"time"
)

// Member is a user's membership in an organization. Role "" is a guest.
type Member struct {
	OrgID      string
	User       User
	Role       Role
	Disabled   bool
	JoinedAt   time.Time
	LastSeenAt *time.Time
	SSO        bool
	Spaces     int // spaces the member holds a direct grant on
	Teams      int // teams the member belongs to
}

// MemberSort is the key a member list is sorted by.
type MemberSort string

// Member sort keys.
const (
	SortJoinedAt   MemberSort = "joinedAt"
	SortLastSeenAt MemberSort = "lastSeenAt" // lists only members seen at least once
)

// MemberFilter narrows a member list.
type MemberFilter struct {
	Role   *Role // pointer to "" selects guests
	Search string
	// Team keeps the members of that team of the organization.
	Team  string
	Sort  MemberSort
	Order Order
}

// MemberSpace is a space a member holds a role on.
type MemberSpace struct {
	Role  Role
	Space *Space
}

// MemberStore persists memberships.
type MemberStore interface {
	// AddMember stores a membership. Returns ECONFLICT if it exists.
	AddMember(ctx context.Context, m *Member) error
	// Member returns a membership. Returns ENOTFOUND.
	Member(ctx context.Context, orgID, userID string) (*Member, error)
	// Members lists the members of an organization.
	Members(ctx context.Context, orgID string, f MemberFilter, p Page) (*List[*Member], error)
	// UpdateMemberRole sets a member's role ("" for guest). Returns ENOTFOUND.
	UpdateMemberRole(ctx context.Context, orgID, userID string, role Role) (*Member, error)
	// SetMemberDisabled disables or enables a membership: a disabled
	// member keeps their role and grants but reaches nothing. Returns
	// ENOTFOUND.
	SetMemberDisabled(ctx context.Context, orgID, userID string, disabled bool) (*Member, error)
	// SetMemberSSO marks a member as an SSO member. Returns ENOTFOUND.
	SetMemberSSO(ctx context.Context, orgID, userID string, sso bool) (*Member, error)
	// TouchMember sets last-seen to now. Returns ENOTFOUND.
	TouchMember(ctx context.Context, orgID, userID string, at time.Time) error
	// RemoveMember deletes a membership, its team memberships and its
	// grants in the organization; it reports whether one existed.
	RemoveMember(ctx context.Context, orgID, userID string) (bool, error)
	// CountAdmins counts members with the admin role who are not
	// disabled.
	CountAdmins(ctx context.Context, orgID string) (int, error)
	// MemberSpaces lists the spaces a user holds a direct or team grant on,
	// with the highest such role, ordered by space id in the given order.
	MemberSpaces(ctx context.Context, orgID, userID string, order Order, p Page) (*List[*MemberSpace], error)
}
