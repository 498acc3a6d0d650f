package sqlstore

import (
	"context"
)

// LastPosition returns the highest position among the live spaces and the
// collections directly under parent ("" for the root) in an organization,
// or "" when there are none. Each side is one descent of its
// (org, parent, position) index to its last entry, so the cost does not
// grow with the number of siblings.
func (s *Store) LastPosition(ctx context.Context, orgID, parent string) (string, error) {
	spaceParent, collParent := "s.parent_id IS NULL", "c.parent_id IS NULL"
	args := []any{orgID}
	if parent != "" {
		spaceParent, collParent = "s.parent_id = ?", "c.parent_id = ?"
		args = append(args, parent)
	}
	args = append(args, args...)
	q := `SELECT (SELECT s.position FROM spaces s
			WHERE s.org_id = ? AND ` + spaceParent + ` AND s.deleted_at IS NULL
			ORDER BY s.position DESC LIMIT 1),
		(SELECT c.position FROM collections c
			WHERE c.org_id = ? AND ` + collParent + `
			ORDER BY c.position DESC LIMIT 1)`
	var sp, c *string
	if err := s.queryRow(ctx, q, args...).Scan(&sp, &c); err != nil {
		return "", wrap("last position", err)
	}
	last := ""
	for _, p := range []*string{sp, c} {
		if p != nil && *p > last {
			last = *p
		}
	}
	return last, nil
}
