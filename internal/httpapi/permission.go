package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// inviteInput is the body of POST /spaces/{spaceId}/permissions.
type inviteInput struct {
	Role  nullable[string] `json:"role" enum:"admin,create,edit,review,comment,read"`
	Users []string         `json:"users,omitempty" maxItems:"1000"`
	Teams []string         `json:"teams,omitempty" maxItems:"1000"`
}

func (s *Server) inviteToSpace(ctx context.Context, in *struct {
	SpacePath
	Body inviteInput
}) (*statusOnly, error) {
	if !in.Body.Role.Set || in.Body.Role.Null {
		return nil, quire.Invalid("role", "a grant needs a role")
	}
	err := s.svc.InviteToSpace(ctx, in.SpaceID, quire.Role(in.Body.Role.Value), in.Body.Users, in.Body.Teams)
	if err != nil {
		return nil, err
	}
	return noContent(), nil
}

// rolePatch changes a grant: a role, or null to remove it.
type rolePatch struct {
	Role nullable[string] `json:"role,omitempty" enum:"admin,create,edit,review,comment,read"`
}

// role returns the new role, or nil to remove the grant (role: null).
func (p rolePatch) role() (*quire.Role, error) {
	if !p.Role.Set {
		return nil, quire.Invalid("role", "required: a role, or null to remove the permission")
	}
	if p.Role.Null {
		return nil, nil
	}
	r := quire.Role(p.Role.Value)
	return &r, nil
}

// teamPermissionJSON is a team's role on a space.
type teamPermissionJSON struct {
	Permission string   `json:"permission" enum:"admin,create,edit,review,comment,read"`
	Team       teamJSON `json:"team"`
}

// userPermissionJSON is a user's role on a space.
type userPermissionJSON struct {
	Permission string   `json:"permission" enum:"admin,create,edit,review,comment,read"`
	User       userJSON `json:"user"`
}

// SpaceTeamPath names a team's grant on a space.
type SpaceTeamPath struct {
	SpacePath
	TeamID string `path:"teamId"`
}

// SpaceUserPath names a user's grant on a space.
type SpaceUserPath struct {
	SpacePath
	UserID string `path:"userId"`
}

func (s *Server) listSpaceTeams(ctx context.Context, in *struct {
	SpacePath
	ListParams
}) (*body[listOf[teamPermissionJSON]], error) {
	l, err := s.svc.SpaceTeamGrants(ctx, in.SpaceID, in.page())
	if err != nil {
		return nil, err
	}
	sp, err := s.svc.Space(ctx, in.SpaceID)
	if err != nil {
		return nil, err
	}
	// Team flags say what the caller may do with the team, which is a
	// matter of their level in the organization, not on the space.
	lvl, err := s.svc.Level(ctx, userFrom(ctx), service.ScopeOrganization, sp.OrgID)
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, func(g service.TeamGrant) teamPermissionJSON {
		return teamPermissionJSON{Permission: string(g.Role), Team: teamOut(g.Team, lvl)}
	})), nil
}

func (s *Server) listSpaceUsers(ctx context.Context, in *struct {
	SpacePath
	ListParams
}) (*body[listOf[userPermissionJSON]], error) {
	l, err := s.svc.SpaceUserGrants(ctx, in.SpaceID, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, func(g service.UserGrant) userPermissionJSON {
		return userPermissionJSON{Permission: string(g.Role), User: s.userOut(g.User)}
	})), nil
}

func (s *Server) updateSpaceTeam(ctx context.Context, in *struct {
	SpaceTeamPath
	Body rolePatch
}) (*statusOnly, error) {
	role, err := in.Body.role()
	if err != nil {
		return nil, err
	}
	if err := s.svc.SetSpaceGrant(ctx, in.SpaceID, quire.PrincipalTeam, in.TeamID, role); err != nil {
		return nil, err
	}
	return noContent(), nil
}

func (s *Server) removeSpaceTeam(ctx context.Context, in *SpaceTeamPath) (*statusOnly, error) {
	ok, err := s.svc.RemoveSpaceGrant(ctx, in.SpaceID, quire.PrincipalTeam, in.TeamID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) updateSpaceUser(ctx context.Context, in *struct {
	SpaceUserPath
	Body rolePatch
}) (*statusOnly, error) {
	role, err := in.Body.role()
	if err != nil {
		return nil, err
	}
	if err := s.svc.SetSpaceGrant(ctx, in.SpaceID, quire.PrincipalUser, in.UserID, role); err != nil {
		return nil, err
	}
	return noContent(), nil
}

func (s *Server) removeSpaceUser(ctx context.Context, in *SpaceUserPath) (*statusOnly, error) {
	ok, err := s.svc.RemoveSpaceGrant(ctx, in.SpaceID, quire.PrincipalUser, in.UserID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}
