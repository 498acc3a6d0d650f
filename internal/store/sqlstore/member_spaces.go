package sqlstore

import (
	"context"

	"quire/internal/quire"
)

// memberGrants returns a derived table "r(space_id, best)": for each
// space, the highest rank among the grants held on it by a user (first ?)
// directly or through the teams of an organization (second and third ?).
func memberGrants() string {
	return `(SELECT g.target_id AS space_id, MAX(` + roleRank("g.role") + `) AS best
	FROM grants g
	WHERE g.target_kind = 'space'
	  AND ((g.principal_kind = 'user' AND g.principal_id = ?)
	    OR (g.principal_kind = 'team' AND g.principal_id IN
	         (SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id
	          WHERE tm.user_id = ? AND t.org_id = ?)))
	GROUP BY g.target_id) r`
}

// MemberSpaces lists the organization's live spaces the user holds a
// direct or team grant on, with the highest such role, ordered by space id
// in the given order (ascending by default).
func (s *Store) MemberSpaces(ctx context.Context, orgID, userID string, order quire.Order, p quire.Page) (*quire.List[*quire.MemberSpace], error) {
	desc, err := descending(order, false)
	if err != nil {
		return nil, err
	}
	from := " FROM " + memberGrants() + " JOIN spaces s ON s.id = r.space_id"
	var w filter
	w.args = append(w.args, userID, userID, orgID)
	w.add("s.org_id = ?", orgID)
	w.add("s.deleted_at IS NULL")
	count, err := s.count(ctx, "SELECT COUNT(*)"+from+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list member spaces", err)
	}
	tag := "ms." + direction(desc)
	if p.Cursor != "" {
		var id string
		if err := decodeCursor(p.Cursor, tag, &id); err != nil {
			return nil, err
		}
		w.seekID("s.id", desc, id)
	}
	q := "SELECT " + spaceCols + ", r.best" + from + w.where() + " ORDER BY s.id " + direction(desc)
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), func(sc scanner) (*quire.MemberSpace, error) {
		var rank int64
		sp, err := scanSpace(rowWithExtra{sc, []any{&rank}})
		return &quire.MemberSpace{Space: sp, Role: roleOfRank(rank)}, err
	})
	if err != nil {
		return nil, wrap("list member spaces", err)
	}
	return newList(items, more, count, func(ms *quire.MemberSpace) string {
		return encodeCursor(tag, ms.Space.ID)
	}), nil
}
