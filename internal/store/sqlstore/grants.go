package sqlstore

import (
	"context"

	"quire/internal/quire"
)

// checkGrantKey returns EINVALID unless the grant names a known kind of
// target and principal.
func checkGrantKey(g quire.Grant) error {
	if g.TargetKind != quire.GrantSpace && g.TargetKind != quire.GrantCollection {
		return quire.Invalid("targetKind", "must be space or collection")
	}
	if g.PrincipalKind != quire.PrincipalUser && g.PrincipalKind != quire.PrincipalTeam {
		return quire.Invalid("principalKind", "must be user or team")
	}
	return nil
}

// SetGrant creates a grant, or replaces the role of the grant with the
// same target and principal.
func (s *Store) SetGrant(ctx context.Context, g quire.Grant) error {
	if err := checkGrantKey(g); err != nil {
		return err
	}
	if !g.Role.Valid() {
		return quire.Invalid("role", "must be one of admin, create, edit, review, comment, read")
	}
	_, err := s.exec(ctx, `INSERT INTO grants (target_kind, target_id, principal_kind, principal_id, role)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (target_kind, target_id, principal_kind, principal_id) DO UPDATE SET role = excluded.role`,
		g.TargetKind, g.TargetID, g.PrincipalKind, g.PrincipalID, string(g.Role))
	return wrap("set grant", err)
}

// RemoveGrant deletes the grant with g's target and principal, whatever
// its role; it reports whether one existed.
func (s *Store) RemoveGrant(ctx context.Context, g quire.Grant) (bool, error) {
	n, err := s.exec(ctx, `DELETE FROM grants
		WHERE target_kind = ? AND target_id = ? AND principal_kind = ? AND principal_id = ?`,
		g.TargetKind, g.TargetID, g.PrincipalKind, g.PrincipalID)
	return n > 0, wrap("remove grant", err)
}

// Grants lists the grants on a target, ordered by principal kind then id.
func (s *Store) Grants(ctx context.Context, targetKind quire.GrantTarget, targetID string) ([]quire.Grant, error) {
	out, err := fetchAll(ctx, s, `SELECT `+grantCols+`
		FROM grants WHERE target_kind = ? AND target_id = ?
		ORDER BY principal_kind, principal_id`, []any{targetKind, targetID}, scanGrant)
	if out == nil && err == nil {
		out = []quire.Grant{}
	}
	return out, wrap("list grants", err)
}

// SubtreeGrants lists the grants on a collection and on every collection
// and space, deleted or not, below it, ordered by target then principal.
func (s *Store) SubtreeGrants(ctx context.Context, collectionID string) ([]quire.Grant, error) {
	out, err := fetchAll(ctx, s, subtreeCTE+`SELECT `+grantCols+` FROM grants
		WHERE (target_kind = 'collection' AND target_id IN (SELECT id FROM subtree))
		   OR (target_kind = 'space' AND target_id IN
		        (SELECT sp.id FROM spaces sp WHERE sp.parent_id IN (SELECT id FROM subtree)))
		ORDER BY target_kind, target_id, principal_kind, principal_id`, []any{collectionID}, scanGrant)
	return out, wrap("list subtree grants", err)
}

// grantCols are the columns scanGrant reads.
const grantCols = "target_kind, target_id, principal_kind, principal_id, role"

// scanGrant reads the columns of grantCols.
func scanGrant(sc scanner) (quire.Grant, error) {
	var (
		g    quire.Grant
		role string
	)
	err := sc.Scan(&g.TargetKind, &g.TargetID, &g.PrincipalKind, &g.PrincipalID, &role)
	g.Role = quire.Role(role)
	return g, err
}

// GrantRoles returns, for each of the given targets, the highest role
// granted on it to the user directly or through their teams; targets
// without such a grant are absent from the map.
func (s *Store) GrantRoles(ctx context.Context, userID string, targetKind quire.GrantTarget, targetIDs []string) (map[string]quire.Role, error) {
	out := map[string]quire.Role{}
	if len(targetIDs) == 0 {
		return out, nil
	}
	marks, args := inList([]any{targetKind}, targetIDs)
	args = append(args, userID, userID)
	rows, err := s.query(ctx, `SELECT g.target_id, MAX(`+roleRank("g.role")+`) FROM grants g
		WHERE g.target_kind = ? AND g.target_id IN (`+marks+`)
		  AND `+heldByUser+`
		GROUP BY g.target_id`, args...)
	if err != nil {
		return nil, wrap("grant roles", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id   string
			rank int64
		)
		if err := rows.Scan(&id, &rank); err != nil {
			return nil, wrap("grant roles", err)
		}
		out[id] = roleOfRank(rank)
	}
	return out, wrap("grant roles", rows.Err())
}
