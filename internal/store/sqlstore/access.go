package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// factsQuery gathers the access facts on a target in one statement. The
// recursive chain walks from the target (anchor, which must select kind,
// id, parent_id, default_level, org_id for the ? target id) up through its
// collections. Each result row is one link of the chain, nearest first,
// carrying its default level; every row repeats the same membership,
// organization default and highest grant, the latter a non-correlated
// subquery both engines evaluate once.
func factsQuery(anchor string) string {
	return `WITH RECURSIVE chain(kind, id, parent_id, default_level, org_id, depth) AS (
		` + anchor + `
		UNION ALL
		SELECT CAST('collection' AS TEXT), c.id, c.parent_id, c.default_level, chain.org_id, chain.depth + 1
		FROM collections c JOIN chain ON c.id = chain.parent_id
		WHERE chain.depth < ` + maxDepth + `)
	SELECT ch.org_id, CASE WHEN m.user_id IS NULL THEN 0 ELSE 1 END, m.role, o.default_role,
		(SELECT MAX(` + roleRank("g.role") + `) FROM grants g
		  JOIN chain gc ON g.target_kind = gc.kind AND g.target_id = gc.id
		  WHERE (g.principal_kind = 'user' AND g.principal_id = ?)
		     OR (g.principal_kind = 'team' AND g.principal_id IN
		          (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = ?))),
		ch.default_level
	FROM chain ch
	LEFT JOIN organizations o ON o.id = ch.org_id
	LEFT JOIN members m ON m.org_id = ch.org_id AND m.user_id = ?
	ORDER BY ch.depth`
}

// SpaceFacts gathers the facts about userID on a space, deleted or not.
// Returns ENOTFOUND if the space does not exist.
func (s *Store) SpaceFacts(ctx context.Context, spaceID, userID string) (quire.Facts, error) {
	q := factsQuery(`SELECT CAST('space' AS TEXT), s.id, s.parent_id, s.default_level, s.org_id, 0
		FROM spaces s WHERE s.id = ?`)
	return s.facts(ctx, q, spaceID, userID, "space")
}

// CollectionFacts gathers the facts about userID on a collection. Returns
// ENOTFOUND if the collection does not exist.
func (s *Store) CollectionFacts(ctx context.Context, collectionID, userID string) (quire.Facts, error) {
	q := factsQuery(`SELECT CAST('collection' AS TEXT), c.id, c.parent_id, c.default_level, c.org_id, 0
		FROM collections c WHERE c.id = ?`)
	return s.facts(ctx, q, collectionID, userID, "collection")
}

// facts runs a factsQuery and folds its rows into Facts.
func (s *Store) facts(ctx context.Context, q, targetID, userID, what string) (quire.Facts, error) {
	var f quire.Facts
	rows, err := s.query(ctx, q, targetID, userID, userID, userID)
	if err != nil {
		return f, wrap(what+" facts", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			member            int
			role, orgDef, lvl sql.NullString
			grant             sql.NullInt64
		)
		if err := rows.Scan(&f.OrgID, &member, &role, &orgDef, &grant, &lvl); err != nil {
			return quire.Facts{}, wrap(what+" facts", err)
		}
		f.Member = member == 1
		f.OrgRole = quire.Role(role.String)
		f.OrgDefault = quire.Role(orgDef.String)
		f.Grant = roleOfRank(grant.Int64)
		f.Defaults = append(f.Defaults, quire.DefaultLevel(lvl.String))
	}
	if err := rows.Err(); err != nil {
		return quire.Facts{}, wrap(what+" facts", err)
	}
	if f.Defaults == nil {
		return f, quire.NotFound(what)
	}
	return f, nil
}

// OrganizationFacts gathers the facts about userID on an organization:
// only membership and role, since organization-level checks use the role
// alone. Returns ENOTFOUND if the organization does not exist.
func (s *Store) OrganizationFacts(ctx context.Context, orgID, userID string) (quire.Facts, error) {
	var (
		f      quire.Facts
		member int
		role   sql.NullString
	)
	err := s.queryRow(ctx, `SELECT o.id, CASE WHEN m.user_id IS NULL THEN 0 ELSE 1 END, m.role
		FROM organizations o LEFT JOIN members m ON m.org_id = o.id AND m.user_id = ?
		WHERE o.id = ?`, userID, orgID).Scan(&f.OrgID, &member, &role)
	if errors.Is(err, sql.ErrNoRows) {
		return f, quire.NotFound("organization")
	}
	if err != nil {
		return quire.Facts{}, wrap("organization facts", err)
	}
	f.Member = member == 1
	f.OrgRole = quire.Role(role.String)
	return f, nil
}
