package service

import (
	"context"
	"sort"

	"quire/internal/quire"
)

// TeamGrant is a team's role on a space.
type TeamGrant struct {
	Team *quire.Team
	Role quire.Role
}

// UserGrant is a user's direct role on a space.
type UserGrant struct {
	User *quire.User
	Role quire.Role
}

// InviteToSpace grants a role on a space to members and teams of its
// organization.
func (s *Service) InviteToSpace(ctx context.Context, spaceID string, role quire.Role, users, teams []string) error {
	if len(users) == 0 && len(teams) == 0 {
		return quire.Invalid("users", "give at least one user or team")
	}
	return s.store.WithTx(ctx, func(st quire.Store) error {
		sp, err := liveSpace(ctx, st, spaceID)
		if err != nil {
			return err
		}
		for _, id := range dedupe(users) {
			if _, err := st.Member(ctx, sp.OrgID, id); quire.IsNotFound(err) {
				return quire.Errorf(quire.ENOTFOUND, "users: no member with id %q in the organization", id)
			} else if err != nil {
				return err
			}
			if err := st.SetGrant(ctx, quire.Grant{TargetKind: quire.GrantSpace, TargetID: spaceID, PrincipalKind: quire.PrincipalUser, PrincipalID: id, Role: role}); err != nil {
				return err
			}
		}
		for _, id := range dedupe(teams) {
			if _, err := st.Team(ctx, sp.OrgID, id); quire.IsNotFound(err) {
				return quire.Errorf(quire.ENOTFOUND, "teams: no team with id %q in the organization", id)
			} else if err != nil {
				return err
			}
			if err := st.SetGrant(ctx, quire.Grant{TargetKind: quire.GrantSpace, TargetID: spaceID, PrincipalKind: quire.PrincipalTeam, PrincipalID: id, Role: role}); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetSpaceGrant changes (role set) or removes (role nil) the role of one
// team or user on a space; the principal must already hold a grant.
func (s *Service) SetSpaceGrant(ctx context.Context, spaceID string, kind quire.Principal, principalID string, role *quire.Role) error {
	return s.store.WithTx(ctx, func(st quire.Store) error {
		grants, err := st.Grants(ctx, quire.GrantSpace, spaceID)
		if err != nil {
			return err
		}
		g, ok := findGrant(grants, kind, principalID)
		if !ok {
			return quire.NotFound(string(kind) + " permission")
		}
		if role == nil {
			_, err := st.RemoveGrant(ctx, g)
			return err
		}
		g.Role = *role
		return st.SetGrant(ctx, g)
	})
}

// RemoveSpaceGrant removes the grant of one team or user on a space; it
// reports whether one existed.
func (s *Service) RemoveSpaceGrant(ctx context.Context, spaceID string, kind quire.Principal, principalID string) (bool, error) {
	return s.store.RemoveGrant(ctx, quire.Grant{TargetKind: quire.GrantSpace, TargetID: spaceID, PrincipalKind: kind, PrincipalID: principalID})
}

// findGrant finds the grant of a principal.
func findGrant(grants []quire.Grant, kind quire.Principal, id string) (quire.Grant, bool) {
	for _, g := range grants {
		if g.PrincipalKind == kind && g.PrincipalID == id {
			return g, true
		}
	}
	return quire.Grant{}, false
}

// grantPage pages through the grants of one principal kind, ordered by
// principal id.
func grantPage(grants []quire.Grant, kind quire.Principal, p quire.Page) (*quire.List[quire.Grant], error) {
	var sel []quire.Grant
	for _, g := range grants {
		if g.PrincipalKind == kind {
			sel = append(sel, g)
		}
	}
	sort.Slice(sel, func(i, j int) bool { return sel[i].PrincipalID < sel[j].PrincipalID })
	return PageSlice(sel, p, func(g quire.Grant) string { return g.PrincipalID })
}

// SpaceTeamGrants lists the teams holding a role on a space.
func (s *Service) SpaceTeamGrants(ctx context.Context, spaceID string, p quire.Page) (*quire.List[TeamGrant], error) {
	sp, err := s.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	grants, err := s.store.Grants(ctx, quire.GrantSpace, spaceID)
	if err != nil {
		return nil, err
	}
	page, err := grantPage(grants, quire.PrincipalTeam, p)
	if err != nil {
		return nil, err
	}
	out := &quire.List[TeamGrant]{Next: page.Next, Count: page.Count}
	for _, g := range page.Items {
		t, err := s.store.Team(ctx, sp.OrgID, g.PrincipalID)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, TeamGrant{Team: t, Role: g.Role})
	}
	return out, nil
}

// SpaceUserGrants lists the users holding a direct role on a space.
func (s *Service) SpaceUserGrants(ctx context.Context, spaceID string, p quire.Page) (*quire.List[UserGrant], error) {
	grants, err := s.store.Grants(ctx, quire.GrantSpace, spaceID)
	if err != nil {
		return nil, err
	}
	page, err := grantPage(grants, quire.PrincipalUser, p)
	if err != nil {
		return nil, err
	}
	out := &quire.List[UserGrant]{Next: page.Next, Count: page.Count}
	for _, g := range page.Items {
		u, err := s.store.User(ctx, g.PrincipalID)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, UserGrant{User: u, Role: g.Role})
	}
	return out, nil
}
