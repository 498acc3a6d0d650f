package quire

import (
	"context"
	"time"
)

// Team is a named group of members of an organization.
type Team struct {
	ID        string
	OrgID     string
	Title     string
	Members   int
	Spaces    int
	CreatedAt time.Time
}

// Team member roles.
const (
	TeamOwner  = "owner"
	TeamMember = "member"
)

// TeamFilter narrows a team list. Owner keeps teams that user owns; Title
// keeps teams whose title contains it, case-insensitively.
type TeamFilter struct {
	Owner string
	Title string
}

// MemberTeam is a team a member belongs to, with their role in it.
type MemberTeam struct {
	Team *Team
	Role string // owner or member
}

// TeamStore persists teams and their members.
type TeamStore interface {
	// CreateTeam stores a team and its initial members (all with the
	// member role).
	CreateTeam(ctx context.Context, t *Team, members []string) error
	// Team returns a team. Returns ENOTFOUND.
	Team(ctx context.Context, orgID, id string) (*Team, error)
	// Teams lists the teams of an organization, oldest first.
	Teams(ctx context.Context, orgID string, f TeamFilter, p Page) (*List[*Team], error)
	// RenameTeam changes a team's title. Returns ENOTFOUND.
	RenameTeam(ctx context.Context, orgID, id, title string) (*Team, error)
	// DeleteTeam deletes a team and its grants; it reports whether one
	// existed.
	DeleteTeam(ctx context.Context, orgID, id string) (bool, error)
	// MemberTeams lists the teams a user belongs to.
	MemberTeams(ctx context.Context, orgID, userID string, f TeamFilter, p Page) (*List[*MemberTeam], error)
	// SetTeamMember adds a member of the organization to a team with a
	// role (TeamOwner or TeamMember), or changes their role in it. Returns
	// ENOTFOUND if the team does not exist, EINVALID if the role is unknown
	// or the user is not a member of the organization.
	SetTeamMember(ctx context.Context, orgID, teamID, userID, role string) error
	// RemoveTeamMember removes a user from a team; it reports whether they
	// were in it.
	RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error)
}
