package sqlstore

import (
	"context"

	"quire/internal/quire"
)

// MemberTeams lists the organization's teams the user belongs to, with the
// user's role in each, oldest team first.
func (s *Store) MemberTeams(ctx context.Context, orgID, userID string, f quire.TeamFilter, p quire.Page) (*quire.List[*quire.MemberTeam], error) {
	const tag = "mt"
	const from = " FROM teams t JOIN team_members mt ON mt.team_id = t.id AND mt.user_id = ?"
	var w filter
	w.args = append(w.args, userID)
	w.add("t.org_id = ?", orgID)
	teamFilter(&w, f)
	count, err := s.count(ctx, "SELECT COUNT(*)"+from+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list member teams", err)
	}
	if err := seekCreated(&w, p.Cursor, tag); err != nil {
		return nil, err
	}
	q := "SELECT " + teamCols + ", mt.role" + from + w.where() + " ORDER BY t.created_at, t.id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), func(sc scanner) (*quire.MemberTeam, error) {
		var mt quire.MemberTeam
		t, err := scanTeam(rowWithExtra{sc, []any{&mt.Role}})
		mt.Team = t
		return &mt, err
	})
	if err != nil {
		return nil, wrap("list member teams", err)
	}
	return newList(items, more, count, func(mt *quire.MemberTeam) string {
		return encodeCursor(tag, millis(mt.Team.CreatedAt), mt.Team.ID)
	}), nil
}

// SetTeamMember adds a user to a team of the organization with a role
// (owner or member), or changes the role of a user already in it. Returns
// ENOTFOUND if the team does not exist and EINVALID if the role is unknown
// or the user is not a member of the organization.
func (s *Store) SetTeamMember(ctx context.Context, orgID, teamID, userID, role string) error {
	if role != quire.TeamOwner && role != quire.TeamMember {
		return quire.Invalid("role", "must be owner or member")
	}
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.Team(ctx, orgID, teamID); err != nil {
			return err
		}
		if err := tx.checkOrgMembers(ctx, orgID, []string{userID}); err != nil {
			if quire.ErrorCode(err) == quire.EINVALID {
				return quire.Invalid("user", "user %s is not a member of the organization", userID)
			}
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO team_members (team_id, user_id, role) VALUES (?, ?, ?)
			ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`, teamID, userID, role)
		return err
	})
	return wrap("set team member", err)
}

// RemoveTeamMember removes a user from a team of the organization; it
// reports whether the user was in it.
func (s *Store) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error) {
	n, err := s.exec(ctx, `DELETE FROM team_members
		WHERE team_id = ? AND user_id = ? AND team_id IN (SELECT t.id FROM teams t WHERE t.org_id = ?)`,
		teamID, userID, orgID)
	return n > 0, wrap("remove team member", err)
}
