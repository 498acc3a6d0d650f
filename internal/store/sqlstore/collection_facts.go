package sqlstore

import (
	"context"

	"quire/internal/quire"
)

// CollectionsFacts gathers the facts about userID on many collections in
// one statement: one recursive walk up from every listed collection, each
// link carrying its default level and the highest grant on it. Ids that
// are not collections are absent from the map.
func (s *Store) CollectionsFacts(ctx context.Context, ids []string, userID string) (map[string]quire.Facts, error) {
	out := make(map[string]quire.Facts, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	marks, args := inList(nil, ids)
	args = append(args, userID, userID, userID)
	q := `WITH RECURSIVE chain(start, id, parent_id, default_level, org_id, depth) AS (
		SELECT c.id, c.id, c.parent_id, c.default_level, c.org_id, 0 FROM collections c
		WHERE c.id IN (` + marks + `)
		UNION ALL
		SELECT chain.start, c.id, c.parent_id, c.default_level, chain.org_id, chain.depth + 1
		FROM collections c JOIN chain ON c.id = chain.parent_id
		WHERE chain.depth < ` + maxDepth + `)
	SELECT ch.start, ch.org_id, ` + membershipCols + `,
		(SELECT MAX(` + roleRank("g.role") + `) FROM grants g
		  WHERE g.target_kind = 'collection' AND g.target_id = ch.id
		    AND ` + heldByUser + `),
		ch.default_level
	FROM chain ch
	LEFT JOIN organizations o ON o.id = ch.org_id
	LEFT JOIN members m ON m.org_id = ch.org_id AND m.user_id = ?
	ORDER BY ch.start, ch.depth`
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, wrap("collection facts", err)
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		var (
			start string
			row   factsRow
		)
		if err := rows.Scan(append([]any{&start}, row.targets()...)...); err != nil {
			return nil, wrap("collection facts", err)
		}
		n++
		f, seen := out[start]
		best := f.Grant
		row.fold(&f)
		// Each link carries the grants on that link alone: keep the
		// highest along the chain.
		if seen && best.Level() > f.Grant.Level() {
			f.Grant = best
		}
		out[start] = f
	}
	s.stats.rows.Add(n)
	return out, wrap("collection facts", rows.Err())
}
