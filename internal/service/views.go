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
// organization with a fixed number of queries: one for the facts of every
// distinct parent collection, the organization's facts for root spaces,
// and one for the grants on the spaces themselves. It folds them exactly as
// SpaceFacts would. A grant only ever raises a level, so the grants are
// looked up only for the spaces where one still could: not where the
// caller is already an admin (an organization admin's whole list), nor
// where they see nothing whatever their grants.
func (s *Service) spaceLevels(ctx context.Context, u *quire.User, spaces []*quire.Space) (map[string]quire.Level, error) {
	levels, err := s.spaceLevelsWith(ctx, u, spaces, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]quire.Level, len(spaces))
	for i, sp := range spaces {
		out[sp.ID] = levels[i]
	}
	return out, nil
}

// spaceLevelsWith is spaceLevels with the facts root spaces inherit known
// already for the organizations in known (keyed by organization id); it
// returns the levels in the order of spaces.
func (s *Service) spaceLevelsWith(ctx context.Context, u *quire.User, spaces []*quire.Space, known map[string]quire.Facts) ([]quire.Level, error) {
	out := make([]quire.Level, len(spaces))
	if len(spaces) == 0 {
		return out, nil
	}
	var colls []string
	for _, sp := range spaces {
		if sp.Parent != "" {
			colls = append(colls, sp.Parent)
		}
	}
	inColl, err := s.store.CollectionsFacts(ctx, uniq(colls), u.ID)
	if err != nil {
		return nil, err
	}
	roots := map[string]quire.Facts{} // by organization
	for org, f := range known {
		roots[org] = f
	}
	// The spaces a grant could raise, with where they are listed and the
	// facts they inherit.
	var (
		raisable   []string
		raisableAt []int
		inherited  []quire.Facts
	)
	for i, sp := range spaces {
		var pf quire.Facts
		if sp.Parent != "" {
			var ok bool
			if pf, ok = inColl[sp.Parent]; !ok {
				return nil, quire.NotFound("collection")
			}
		} else if f, ok := roots[sp.OrgID]; ok {
			pf = f
		} else {
			if pf, err = s.rootFacts(ctx, u, sp.OrgID); err != nil {
				return nil, err
			}
			roots[sp.OrgID] = pf
		}
		out[i] = spaceLevel(pf, sp, "")
		if pf.Member && !pf.Disabled && out[i] < quire.LevelAdmin {
			raisable = append(raisable, sp.ID)
			raisableAt = append(raisableAt, i)
			inherited = append(inherited, pf)
		}
	}
	if len(raisable) == 0 {
		return out, nil
	}
	grants, err := s.store.GrantRoles(ctx, u.ID, quire.GrantSpace, raisable)
	if err != nil {
		return nil, err
	}
	for j, i := range raisableAt {
		if g := grants[spaces[i].ID]; g != "" {
			out[i] = spaceLevel(inherited[j], spaces[i], g)
		}
	}
	return out, nil
}

// spaceLevel folds the facts a space inherits with its own default level
// and the caller's grant on it.
func spaceLevel(inherited quire.Facts, sp *quire.Space, grant quire.Role) quire.Level {
	var chain [8]quire.DefaultLevel // the chains are short: no allocation
	f := inherited
	f.Defaults = append(append(chain[:0], sp.DefaultLevel), inherited.Defaults...)
	if grant.Level() > f.Grant.Level() {
		f.Grant = grant
	}
	return f.Level()
}

// rootFacts gathers the facts a space at an organization's root inherits:
// the membership and the organization's default role.
func (s *Service) rootFacts(ctx context.Context, u *quire.User, orgID string) (quire.Facts, error) {
	return s.store.RootFacts(ctx, orgID, u.ID)
}

// uniq returns the distinct values of v in their first order.
func uniq(v []string) []string {
	seen := make(map[string]bool, len(v))
	out := v[:0:0]
	for _, x := range v {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
