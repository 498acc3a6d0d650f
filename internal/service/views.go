package service

import (
	"context"

	"quire/internal/quire"
)

// SpaceLevels resolves the caller's level on many spaces of one
// organization in bulk; see spaceLevels.
func (s *Service) SpaceLevels(ctx context.Context, u *quire.User, spaces []*quire.Space) (map[string]quire.Level, error) {
	return s.spaceLevels(ctx, u, spaces)
}

// spaceLevels resolves the caller's level on many spaces of one
// organization with a fixed number of queries: the facts of each distinct
// parent collection (or of the organization for root spaces), plus one
// query for the grants on the spaces themselves. It folds them exactly as
// SpaceFacts would.
func (s *Service) spaceLevels(ctx context.Context, u *quire.User, spaces []*quire.Space) (map[string]quire.Level, error) {
	out := make(map[string]quire.Level, len(spaces))
	if len(spaces) == 0 {
		return out, nil
	}
	ids := make([]string, 0, len(spaces))
	for _, sp := range spaces {
		ids = append(ids, sp.ID)
	}
	grants, err := s.store.GrantRoles(ctx, u.ID, quire.GrantSpace, ids)
	if err != nil {
		return nil, err
	}
	parents := map[string]quire.Facts{}
	for _, sp := range spaces {
		key := sp.OrgID + "/" + sp.Parent
		pf, ok := parents[key]
		if !ok {
			if pf, err = s.parentFacts(ctx, u, sp); err != nil {
				return nil, err
			}
			parents[key] = pf
		}
		f := pf
		f.Defaults = append([]quire.DefaultLevel{sp.DefaultLevel}, pf.Defaults...)
		if g := grants[sp.ID]; g.Level() > f.Grant.Level() {
			f.Grant = g
		}
		out[sp.ID] = f.Level()
	}
	return out, nil
}

// parentFacts gathers the facts a space inherits from where it sits: its
// collection's facts, or the organization's membership and default role
// for a space at the root.
func (s *Service) parentFacts(ctx context.Context, u *quire.User, sp *quire.Space) (quire.Facts, error) {
	if sp.Parent != "" {
		return s.store.CollectionFacts(ctx, sp.Parent, u.ID)
	}
	f, err := s.store.OrganizationFacts(ctx, sp.OrgID, u.ID)
	if err != nil {
		return f, err
	}
	org, err := s.store.Organization(ctx, sp.OrgID)
	if err != nil {
		return f, err
	}
	f.OrgDefault = org.DefaultRole
	return f, nil
}
