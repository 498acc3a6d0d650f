package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// memberCols are the columns scanMember reads, for members aliased m joined
// with users aliased u. The counts are correlated subqueries on indexed
// columns: live spaces the member holds a direct grant on, and teams of the
// organization the member belongs to.
const memberCols = "m.org_id, " + userCols + `, m.role, m.disabled, m.joined_at, m.last_seen_at, m.sso,
	(SELECT COUNT(*) FROM grants g JOIN spaces s ON s.id = g.target_id
	  WHERE g.principal_kind = 'user' AND g.principal_id = m.user_id AND g.target_kind = 'space'
	    AND s.org_id = m.org_id AND s.deleted_at IS NULL),
	(SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id
	  WHERE tm.user_id = m.user_id AND t.org_id = m.org_id)`

// memberFrom is the FROM clause memberCols reads.
const memberFrom = " FROM members m JOIN users u ON u.id = m.user_id"

// scanMember reads the columns of memberCols.
func scanMember(sc scanner) (*quire.Member, error) {
	var (
		m              quire.Member
		uCreated       int64
		role           sql.NullString
		joined         int64
		seen           sql.NullInt64
		spaces, nTeams int
	)
	err := sc.Scan(&m.OrgID, &m.User.ID, &m.User.DisplayName, &m.User.Email, &m.User.PhotoURL, &uCreated,
		&role, &m.Disabled, &joined, &seen, &m.SSO, &spaces, &nTeams)
	if err != nil {
		return nil, err
	}
	m.User.CreatedAt = fromMillis(uCreated)
	m.Role = quire.Role(role.String)
	m.JoinedAt = fromMillis(joined)
	m.LastSeenAt = fromNullMillis(seen)
	m.Spaces, m.Teams = spaces, nTeams
	return &m, nil
}

// AddMember stores a membership of m.User.ID in m.OrgID. Returns ECONFLICT
// if the user is already a member.
func (s *Store) AddMember(ctx context.Context, m *quire.Member) error {
	_, err := s.exec(ctx, `INSERT INTO members (org_id, user_id, role, disabled, sso, joined_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		m.OrgID, m.User.ID, nullString(m.Role), m.Disabled, m.SSO, millis(m.JoinedAt), nullMillis(m.LastSeenAt))
	if err != nil {
		return s.conflict("add member", err, "the user is already a member of the organization")
	}
	return nil
}

// Member returns a membership with its counts, or ENOTFOUND.
func (s *Store) Member(ctx context.Context, orgID, userID string) (*quire.Member, error) {
	m, err := scanMember(s.queryRow(ctx, "SELECT "+memberCols+memberFrom+" WHERE m.org_id = ? AND m.user_id = ?", orgID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("member")
	}
	return m, wrap("get member", err)
}

// Members lists an organization's members sorted by f.Sort (join time by
// default, or last-seen time, which lists only members seen at least once)
// in f.Order (descending by default), ties broken by user id.
func (s *Store) Members(ctx context.Context, orgID string, f quire.MemberFilter, p quire.Page) (*quire.List[*quire.Member], error) {
	col := "m.joined_at"
	switch f.Sort {
	case "", quire.SortJoinedAt:
		f.Sort = quire.SortJoinedAt
	case quire.SortLastSeenAt:
		col = "m.last_seen_at"
	default:
		return nil, quire.Invalid("sort", "must be joinedAt or lastSeenAt")
	}
	desc, err := descending(f.Order, true)
	if err != nil {
		return nil, err
	}
	var w filter
	w.add("m.org_id = ?", orgID)
	if f.Sort == quire.SortLastSeenAt {
		w.add("m.last_seen_at IS NOT NULL")
	}
	if f.Role != nil {
		if *f.Role == "" {
			w.add("m.role IS NULL")
		} else {
			w.add("m.role = ?", string(*f.Role))
		}
	}
	if f.Search != "" {
		pat := containsPattern(f.Search)
		w.add(`(u.name_lower LIKE ? ESCAPE '\' OR u.email_lower LIKE ? ESCAPE '\')`, pat, pat)
	}
	if f.Team != "" {
		w.add("m.user_id IN (SELECT tm.user_id FROM team_members tm WHERE tm.team_id = ?)", f.Team)
	}
	count, err := s.count(ctx, "SELECT COUNT(*)"+memberFrom+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list members", err)
	}
	tag := "m." + string(f.Sort) + "." + direction(desc)
	if err := seekAfter[int64](&w, p, tag, col, "m.user_id", desc); err != nil {
		return nil, err
	}
	dir := direction(desc)
	q := "SELECT " + memberCols + memberFrom + w.where() + " ORDER BY " + col + " " + dir + ", m.user_id " + dir
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanMember)
	if err != nil {
		return nil, wrap("list members", err)
	}
	return newList(items, more, count, func(m *quire.Member) string {
		key := millis(m.JoinedAt)
		if f.Sort == quire.SortLastSeenAt {
			key = millis(*m.LastSeenAt)
		}
		return encodeCursor(tag, key, m.User.ID)
	}), nil
}

// descending reads a sort order, "" meaning the default given.
func descending(o quire.Order, byDefault bool) (bool, error) {
	switch o {
	case "":
		return byDefault, nil
	case quire.OrderAsc:
		return false, nil
	case quire.OrderDesc:
		return true, nil
	}
	return false, quire.Invalid("order", "must be asc or desc")
}

// UpdateMemberRole sets a member's role ("" for guest). Returns ENOTFOUND.
func (s *Store) UpdateMemberRole(ctx context.Context, orgID, userID string, role quire.Role) (*quire.Member, error) {
	return s.updateMember(ctx, orgID, userID, "role", nullString(role))
}

// SetMemberDisabled disables or enables a membership. Returns ENOTFOUND.
func (s *Store) SetMemberDisabled(ctx context.Context, orgID, userID string, disabled bool) (*quire.Member, error) {
	return s.updateMember(ctx, orgID, userID, "disabled", disabled)
}

// SetMemberSSO sets whether a member is an SSO member. Returns ENOTFOUND.
func (s *Store) SetMemberSSO(ctx context.Context, orgID, userID string, sso bool) (*quire.Member, error) {
	return s.updateMember(ctx, orgID, userID, "sso", sso)
}

// updateMember sets one column of a membership and returns the result.
func (s *Store) updateMember(ctx context.Context, orgID, userID, col string, v any) (*quire.Member, error) {
	var out *quire.Member
	err := s.inTx(ctx, func(tx *Store) error {
		var set setter
		set.add(col, v)
		if err := tx.update(ctx, "members", "org_id = ? AND user_id = ?", []any{orgID, userID}, set, "member"); err != nil {
			return err
		}
		var err error
		out, err = tx.Member(ctx, orgID, userID)
		return err
	})
	return out, wrap("update member", err)
}

// TouchMember sets a member's last-seen time. Returns ENOTFOUND.
func (s *Store) TouchMember(ctx context.Context, orgID, userID string, at time.Time) error {
	n, err := s.exec(ctx, "UPDATE members SET last_seen_at = ? WHERE org_id = ? AND user_id = ?", millis(at), orgID, userID)
	if err != nil {
		return wrap("touch member", err)
	}
	if n == 0 {
		return quire.NotFound("member")
	}
	return nil
}

// RemoveMember deletes a membership together with the user's memberships
// in the organization's teams and the user's grants on its spaces and
// collections; it reports whether the membership existed.
func (s *Store) RemoveMember(ctx context.Context, orgID, userID string) (bool, error) {
	var existed bool
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, `DELETE FROM team_members
			WHERE user_id = ? AND team_id IN (SELECT t.id FROM teams t WHERE t.org_id = ?)`, userID, orgID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `DELETE FROM grants
			WHERE principal_kind = 'user' AND principal_id = ?
			  AND ((target_kind = 'space' AND target_id IN (SELECT s.id FROM spaces s WHERE s.org_id = ?))
			    OR (target_kind = 'collection' AND target_id IN (SELECT c.id FROM collections c WHERE c.org_id = ?)))`,
			userID, orgID, orgID); err != nil {
			return err
		}
		n, err := tx.exec(ctx, "DELETE FROM members WHERE org_id = ? AND user_id = ?", orgID, userID)
		existed = n > 0
		return err
	})
	return existed, wrap("remove member", err)
}

// CountAdmins counts the organization's members with the admin role,
// leaving out disabled ones.
func (s *Store) CountAdmins(ctx context.Context, orgID string) (int, error) {
	n, err := s.count(ctx, "SELECT COUNT(*) FROM members WHERE org_id = ? AND role = 'admin' AND NOT disabled", orgID)
	return n, wrap("count admins", err)
}
