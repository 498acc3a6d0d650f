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
// subquery both engines evaluate once; it walks the few chain rows and
// probes grants by primary key (CROSS JOIN fixes that order in SQLite).
func factsQuery(anchor string) string {
	return `WITH RECURSIVE chain(kind, id, parent_id, default_level, org_id, depth) AS (
		` + anchor + `
		UNION ALL
		SELECT CAST('collection' AS TEXT), c.id, c.parent_id, c.default_level, chain.org_id, chain.depth + 1
		FROM collections c JOIN chain ON c.id = chain.parent_id
		WHERE chain.depth < ` + maxDepth + `)
	SELECT ch.org_id, ` + membershipCols + `,
		(SELECT MAX(` + roleRank("g.role") + `) FROM chain gc CROSS JOIN grants g
		  WHERE g.target_kind = gc.kind AND g.target_id = gc.id
		    AND ` + heldByUser + `),
		ch.default_level
	FROM chain ch
	LEFT JOIN organizations o ON o.id = ch.org_id
	LEFT JOIN members m ON m.org_id = ch.org_id AND m.user_id = ?
	ORDER BY ch.depth`
}

// heldByUser is the condition that the grant g is held by a user, given
// twice as arguments: granted to them, or to a team they are in.
const heldByUser = `((g.principal_kind = 'user' AND g.principal_id = ?)
	OR (g.principal_kind = 'team' AND g.principal_id IN
	    (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = ?)))`

// membershipCols are the membership facts of a facts row, read from the
// joined membership m and organization o: member, disabled, role and the
// organization's default role.
const membershipCols = "CASE WHEN m.user_id IS NULL THEN 0 ELSE 1 END, " + disabledCol + ", m.role, o.default_role"

// disabledCol is 1 when the joined membership m is disabled, 0 when it is
// not or there is none.
const disabledCol = "CASE WHEN m.disabled THEN 1 ELSE 0 END"

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
		var row factsRow
		if err := rows.Scan(row.targets()...); err != nil {
			return quire.Facts{}, wrap(what+" facts", err)
		}
		row.fold(&f)
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
// only membership, whether it is disabled, and role, since
// organization-level checks use the role alone. Returns ENOTFOUND if the
// organization does not exist.
func (s *Store) OrganizationFacts(ctx context.Context, orgID, userID string) (quire.Facts, error) {
	f, _, err := s.organizationFacts(ctx, orgID, userID)
	return f, err
}

// RootFacts gathers the facts a space at the organization's root
// inherits: those of OrganizationFacts and the organization's default
// role, in the same statement. Returns ENOTFOUND if the organization does
// not exist.
func (s *Store) RootFacts(ctx context.Context, orgID, userID string) (quire.Facts, error) {
	f, def, err := s.organizationFacts(ctx, orgID, userID)
	f.OrgDefault = def
	return f, err
}

// organizationFacts reads the facts of OrganizationFacts and the
// organization's default role.
func (s *Store) organizationFacts(ctx context.Context, orgID, userID string) (quire.Facts, quire.Role, error) {
	var (
		f                quire.Facts
		member, disabled int
		role, def        sql.NullString
	)
	err := s.queryRow(ctx, `SELECT o.id, CASE WHEN m.user_id IS NULL THEN 0 ELSE 1 END, `+disabledCol+`, m.role, o.default_role
		FROM organizations o LEFT JOIN members m ON m.org_id = o.id AND m.user_id = ?
		WHERE o.id = ?`, userID, orgID).Scan(&f.OrgID, &member, &disabled, &role, &def)
	if errors.Is(err, sql.ErrNoRows) {
		return f, "", quire.NotFound("organization")
	}
	if err != nil {
		return quire.Facts{}, "", wrap("organization facts", err)
	}
	f.Member = member == 1
	f.Disabled = disabled == 1
	f.OrgRole = quire.Role(role.String)
	return f, quire.Role(def.String), nil
}

// SpaceWithFacts returns a space, deleted or not, together with the facts
// about userID on it. One flat statement reads the space, the membership,
// the organization's default role and the grants on the space itself; only
// a space inside a collection needs a second one, for the facts of the
// collection chain above it. Returns ENOTFOUND if the space does not exist.
func (s *Store) SpaceWithFacts(ctx context.Context, spaceID, userID string) (*quire.Space, quire.Facts, error) {
	var row factsRow
	sp, err := scanSpace(rowScanner{row: s.queryRow(ctx, `SELECT `+spaceCols+`,
		`+membershipCols+`,
		(SELECT MAX(`+roleRank("g.role")+`) FROM grants g
		  WHERE g.target_kind = 'space' AND g.target_id = s.id
		    AND `+heldByUser+`)
		FROM spaces s
		LEFT JOIN organizations o ON o.id = s.org_id
		LEFT JOIN members m ON m.org_id = s.org_id AND m.user_id = ?
		WHERE s.id = ?`, userID, userID, userID, spaceID), extra: row.memberTargets()})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Facts{}, quire.NotFound("space")
	}
	if err != nil {
		return nil, quire.Facts{}, wrap("space facts", err)
	}
	// The space row itself supplies the organization and the first link of
	// the default-level chain.
	row.orgID, row.lvl = sp.OrgID, sql.NullString{String: string(sp.DefaultLevel), Valid: true}
	var f quire.Facts
	row.fold(&f)
	if sp.Parent == "" {
		return sp, f, nil
	}
	above, err := s.CollectionFacts(ctx, sp.Parent, userID)
	if err != nil {
		return nil, quire.Facts{}, err
	}
	if above.Grant.Level() > f.Grant.Level() {
		f.Grant = above.Grant
	}
	f.Defaults = append(f.Defaults, above.Defaults...)
	return sp, f, nil
}

// factsRow is one row of a facts query after any subject columns.
type factsRow struct {
	orgID             string
	member, disabled  int
	role, orgDef, lvl sql.NullString
	grant             sql.NullInt64
}

// targets are the scan destinations of the row's columns.
func (r *factsRow) targets() []any {
	return []any{&r.orgID, &r.member, &r.disabled, &r.role, &r.orgDef, &r.grant, &r.lvl}
}

// memberTargets are the scan destinations of the membership, default role
// and grant columns alone.
func (r *factsRow) memberTargets() []any {
	return []any{&r.member, &r.disabled, &r.role, &r.orgDef, &r.grant}
}

// fold adds the row to f: every row repeats the membership, default role
// and grant, and contributes one link of the default-level chain.
func (r *factsRow) fold(f *quire.Facts) {
	f.OrgID = r.orgID
	f.Member = r.member == 1
	f.Disabled = r.disabled == 1
	f.OrgRole = quire.Role(r.role.String)
	f.OrgDefault = quire.Role(r.orgDef.String)
	f.Grant = roleOfRank(r.grant.Int64)
	f.Defaults = append(f.Defaults, quire.DefaultLevel(r.lvl.String))
}

// rowScanner scans a row (from rows, or else row) whose leading columns
// a scan function reads and whose trailing columns go to extra.
type rowScanner struct {
	rows  *sql.Rows
	row   *sql.Row
	extra []any
}

// Scan reads the leading columns into dest and the rest into extra.
func (r rowScanner) Scan(dest ...any) error {
	if r.rows != nil {
		return r.rows.Scan(append(dest, r.extra...)...)
	}
	return r.row.Scan(append(dest, r.extra...)...)
}
