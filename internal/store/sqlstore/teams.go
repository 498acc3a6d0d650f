package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"quire/internal/quire"
)

// teamCols are the columns scanTeam reads, for a teams table aliased t.
// The counts are correlated subqueries on indexed columns: the team's
// members, and the live spaces granted to the team.
const teamCols = `t.id, t.org_id, t.title, t.created_at,
	(SELECT COUNT(*) FROM team_members tm WHERE tm.team_id = t.id),
	(SELECT COUNT(*) FROM grants g JOIN spaces s ON s.id = g.target_id
	  WHERE g.principal_kind = 'team' AND g.principal_id = t.id AND g.target_kind = 'space'
	    AND s.deleted_at IS NULL)`

// scanTeam reads the columns of teamCols.
func scanTeam(sc scanner) (*quire.Team, error) {
	var (
		t       quire.Team
		created int64
	)
	if err := sc.Scan(&t.ID, &t.OrgID, &t.Title, &created, &t.Members, &t.Spaces); err != nil {
		return nil, err
	}
	t.CreatedAt = fromMillis(created)
	return &t, nil
}

// CreateTeam stores a team and its initial members, all with the member
// role. A user who is not a member of the organization is EINVALID.
func (s *Store) CreateTeam(ctx context.Context, t *quire.Team, members []string) error {
	ids := make([]string, 0, len(members))
	for _, id := range members {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.checkOrgMembers(ctx, t.OrgID, ids); err != nil {
			return err
		}
		_, err := tx.exec(ctx, "INSERT INTO teams (id, org_id, title, title_lower, created_at) VALUES (?, ?, ?, ?, ?)",
			t.ID, t.OrgID, t.Title, strings.ToLower(t.Title), millis(t.CreatedAt))
		if err != nil {
			return tx.conflict("create team", err, "a team with this id already exists")
		}
		for _, id := range ids {
			if _, err := tx.exec(ctx, "INSERT INTO team_members (team_id, user_id, role) VALUES (?, ?, ?)",
				t.ID, id, quire.TeamMember); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return wrap("create team", err)
	}
	t.Members, t.Spaces = len(ids), 0
	return nil
}

// checkOrgMembers returns EINVALID naming the first of ids that is not a
// member of the organization.
func (s *Store) checkOrgMembers(ctx context.Context, orgID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	marks, args := inList([]any{orgID}, ids)
	q := "SELECT user_id FROM members WHERE org_id = ? AND user_id IN (" + marks + ")"
	found, err := fetchAll(ctx, s, q, args, scanString)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !slices.Contains(found, id) {
			return quire.Invalid("members", "user %s is not a member of the organization", id)
		}
	}
	return nil
}

// Team returns a team of the organization, or ENOTFOUND.
func (s *Store) Team(ctx context.Context, orgID, id string) (*quire.Team, error) {
	t, err := scanTeam(s.queryRow(ctx, "SELECT "+teamCols+" FROM teams t WHERE t.org_id = ? AND t.id = ?", orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("team")
	}
	return t, wrap("get team", err)
}

// teamFilter adds the conditions of f on teams aliased t.
func teamFilter(w *filter, f quire.TeamFilter) {
	if f.Owner != "" {
		w.add(`EXISTS (SELECT 1 FROM team_members tw
			WHERE tw.team_id = t.id AND tw.user_id = ? AND tw.role = 'owner')`, f.Owner)
	}
	if f.Title != "" {
		w.add(`t.title_lower LIKE ? ESCAPE '\'`, containsPattern(f.Title))
	}
}

// Teams lists an organization's teams, oldest first.
func (s *Store) Teams(ctx context.Context, orgID string, f quire.TeamFilter, p quire.Page) (*quire.List[*quire.Team], error) {
	const tag = "t"
	var w filter
	w.add("t.org_id = ?", orgID)
	teamFilter(&w, f)
	count, err := s.count(ctx, "SELECT COUNT(*) FROM teams t"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list teams", err)
	}
	if err := seekCreated(&w, p.Cursor, tag); err != nil {
		return nil, err
	}
	q := "SELECT " + teamCols + " FROM teams t" + w.where() + " ORDER BY t.created_at, t.id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanTeam)
	if err != nil {
		return nil, wrap("list teams", err)
	}
	return newList(items, more, count, func(t *quire.Team) string {
		return encodeCursor(tag, millis(t.CreatedAt), t.ID)
	}), nil
}

// seekCreated adds the keyset condition of a team list cursor.
func seekCreated(w *filter, cursor, tag string) error {
	return seekCreatedBy(w, cursor, tag, "t.created_at", "t.id", false)
}

// seekCreatedBy moves w past a list cursor of tag over rows ordered by
// the creation time and id columns given (newest first when desc).
func seekCreatedBy(w *filter, cursor, tag, createdCol, idCol string, desc bool) error {
	if cursor == "" {
		return nil
	}
	var (
		created int64
		id      string
	)
	if err := decodeCursor(cursor, tag, &created, &id); err != nil {
		return err
	}
	w.seek(createdCol, idCol, desc, created, id)
	return nil
}

// RenameTeam changes a team's title. Returns ENOTFOUND.
func (s *Store) RenameTeam(ctx context.Context, orgID, id, title string) (*quire.Team, error) {
	var out *quire.Team
	err := s.inTx(ctx, func(tx *Store) error {
		var set setter
		set.add("title", title)
		set.add("title_lower", strings.ToLower(title))
		if err := tx.update(ctx, "teams", "org_id = ? AND id = ?", []any{orgID, id}, set, "team"); err != nil {
			return err
		}
		var err error
		out, err = tx.Team(ctx, orgID, id)
		return err
	})
	return out, wrap("rename team", err)
}

// DeleteTeam deletes a team of the organization with its memberships and
// grants; it reports whether it existed.
func (s *Store) DeleteTeam(ctx context.Context, orgID, id string) (bool, error) {
	var existed bool
	err := s.inTx(ctx, func(tx *Store) error {
		n, err := tx.exec(ctx, "DELETE FROM teams WHERE org_id = ? AND id = ?", orgID, id)
		if err != nil || n == 0 {
			return err
		}
		existed = true
		_, err = tx.exec(ctx, "DELETE FROM grants WHERE principal_kind = 'team' AND principal_id = ?", id)
		return err
	})
	return existed, wrap("delete team", err)
}
