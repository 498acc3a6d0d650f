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
	return s.invite(ctx, quire.GrantSpace, spaceID, role, users, teams)
}

// InviteToCollection grants a role on a collection, and so on everything
// in it, to members and teams of its organization.
func (s *Service) InviteToCollection(ctx context.Context, collectionID string, role quire.Role, users, teams []string) error {
	return s.invite(ctx, quire.GrantCollection, collectionID, role, users, teams)
}

// grantTargetOrg returns the organization of a live grant target.
func grantTargetOrg(ctx context.Context, st quire.Store, kind quire.GrantTarget, id string) (string, error) {
	if kind == quire.GrantCollection {
		c, err := st.Collection(ctx, id)
		if quire.IsNotFound(err) {
			return "", quire.NotFound("collection")
		} else if err != nil {
			return "", err
		}
		return c.OrgID, nil
	}
	sp, err := liveSpace(ctx, st, id)
	if err != nil {
		return "", err
	}
	return sp.OrgID, nil
}

// invite grants a role on a space or collection to members and teams of
// its organization.
func (s *Service) invite(ctx context.Context, kind quire.GrantTarget, targetID string, role quire.Role, users, teams []string) error {
	if len(users) == 0 && len(teams) == 0 {
		return quire.Invalid("users", "give at least one user or team")
	}
	if !role.Valid() {
		return quire.Invalid("role", "must be admin, create, edit, review, comment or read")
	}
	return s.store.WithTx(ctx, func(st quire.Store) error {
		orgID, err := grantTargetOrg(ctx, st, kind, targetID)
		if err != nil {
			return err
		}
		for _, id := range dedupe(users) {
			if _, err := st.Member(ctx, orgID, id); quire.IsNotFound(err) {
				return quire.Errorf(quire.ENOTFOUND, "users: no member with id %q in the organization", id)
			} else if err != nil {
				return err
			}
			if err := st.SetGrant(ctx, quire.Grant{TargetKind: kind, TargetID: targetID, PrincipalKind: quire.PrincipalUser, PrincipalID: id, Role: role}); err != nil {
				return err
			}
		}
		for _, id := range dedupe(teams) {
			if _, err := st.Team(ctx, orgID, id); quire.IsNotFound(err) {
				return quire.Errorf(quire.ENOTFOUND, "teams: no team with id %q in the organization", id)
			} else if err != nil {
				return err
			}
			if err := st.SetGrant(ctx, quire.Grant{TargetKind: kind, TargetID: targetID, PrincipalKind: quire.PrincipalTeam, PrincipalID: id, Role: role}); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetSpaceGrant changes (role set) or removes (role nil) the role of one
// team or user on a space; the principal must already hold a grant.
func (s *Service) SetSpaceGrant(ctx context.Context, spaceID string, kind quire.Principal, principalID string, role *quire.Role) error {
	return s.setGrant(ctx, quire.GrantSpace, spaceID, kind, principalID, role)
}

// SetCollectionGrant changes (role set) or removes (role nil) the role of
// one team or user on a collection; the principal must already hold a
// grant.
func (s *Service) SetCollectionGrant(ctx context.Context, collectionID string, kind quire.Principal, principalID string, role *quire.Role) error {
	return s.setGrant(ctx, quire.GrantCollection, collectionID, kind, principalID, role)
}

// setGrant changes or removes an existing grant.
func (s *Service) setGrant(ctx context.Context, target quire.GrantTarget, targetID string, kind quire.Principal, principalID string, role *quire.Role) error {
	if role != nil && !role.Valid() {
		return quire.Invalid("role", "must be admin, create, edit, review, comment or read")
	}
	return s.store.WithTx(ctx, func(st quire.Store) error {
		grants, err := st.Grants(ctx, target, targetID)
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

// RemoveCollectionGrant removes the grant of one team or user on a
// collection; it reports whether one existed.
func (s *Service) RemoveCollectionGrant(ctx context.Context, collectionID string, kind quire.Principal, principalID string) (bool, error) {
	return s.store.RemoveGrant(ctx, quire.Grant{TargetKind: quire.GrantCollection, TargetID: collectionID, PrincipalKind: kind, PrincipalID: principalID})
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
	return s.teamGrants(ctx, quire.GrantSpace, spaceID, sp.OrgID, p)
}

// CollectionTeamGrants lists the teams holding a role on a collection.
func (s *Service) CollectionTeamGrants(ctx context.Context, collectionID string, p quire.Page) (*quire.List[TeamGrant], error) {
	c, err := s.Collection(ctx, collectionID)
	if err != nil {
		return nil, err
	}
	return s.teamGrants(ctx, quire.GrantCollection, collectionID, c.OrgID, p)
}

// teamGrants lists the teams holding a role on a target of an
// organization.
func (s *Service) teamGrants(ctx context.Context, kind quire.GrantTarget, targetID, orgID string, p quire.Page) (*quire.List[TeamGrant], error) {
	grants, err := s.store.Grants(ctx, kind, targetID)
	if err != nil {
		return nil, err
	}
	page, err := grantPage(grants, quire.PrincipalTeam, p)
	if err != nil {
		return nil, err
	}
	out := &quire.List[TeamGrant]{Next: page.Next, Count: page.Count}
	for _, g := range page.Items {
		t, err := s.store.Team(ctx, orgID, g.PrincipalID)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, TeamGrant{Team: t, Role: g.Role})
	}
	return out, nil
}

// SpaceUserGrants lists the users holding a direct role on a space.
func (s *Service) SpaceUserGrants(ctx context.Context, spaceID string, p quire.Page) (*quire.List[UserGrant], error) {
	return s.userGrants(ctx, quire.GrantSpace, spaceID, p)
}

// CollectionUserGrants lists the users holding a direct role on a
// collection.
func (s *Service) CollectionUserGrants(ctx context.Context, collectionID string, p quire.Page) (*quire.List[UserGrant], error) {
	return s.userGrants(ctx, quire.GrantCollection, collectionID, p)
}

// userGrants lists the users holding a direct role on a target.
func (s *Service) userGrants(ctx context.Context, kind quire.GrantTarget, targetID string, p quire.Page) (*quire.List[UserGrant], error) {
	grants, err := s.store.Grants(ctx, kind, targetID)
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
