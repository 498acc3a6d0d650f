package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// maxDepth bounds every walk up or down the collection tree, so that a
// damaged tree can never make a recursive query run away.
const maxDepth = "100"

// subtreeCTE is a recursive common table expression "subtree(id, depth)"
// holding a collection (the one ? placeholder) and all collections below
// it.
const subtreeCTE = `WITH RECURSIVE subtree(id, depth) AS (
	SELECT c.id, 0 FROM collections c WHERE c.id = ?
	UNION ALL
	SELECT c.id, subtree.depth + 1 FROM collections c JOIN subtree ON c.parent_id = subtree.id
	WHERE subtree.depth < ` + maxDepth + `) `

// collectionCols are the columns scanCollection reads, for a collections
// table aliased c.
const collectionCols = `c.id, c.org_id, c.title, c.description, c.parent_id, c.default_level,
	c.position, c.created_at, c.updated_at`

// scanCollection reads the columns of collectionCols.
func scanCollection(sc scanner) (*quire.Collection, error) {
	var (
		c                quire.Collection
		parent, level    sql.NullString
		created, updated int64
	)
	err := sc.Scan(&c.ID, &c.OrgID, &c.Title, &c.Description, &parent, &level, &c.Position, &created, &updated)
	if err != nil {
		return nil, err
	}
	c.Parent = parent.String
	c.DefaultLevel = quire.DefaultLevel(level.String)
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &c, nil
}

// CreateCollection stores a collection.
func (s *Store) CreateCollection(ctx context.Context, c *quire.Collection) error {
	_, err := s.exec(ctx, `INSERT INTO collections
		(id, org_id, title, description, parent_id, default_level, position, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.OrgID, c.Title, c.Description, nullString(c.Parent), nullString(c.DefaultLevel),
		c.Position, millis(c.CreatedAt), millis(c.UpdatedAt))
	if err != nil {
		return s.conflict("create collection", err, "a collection with this id already exists")
	}
	return nil
}

// Collection returns a collection, or ENOTFOUND.
func (s *Store) Collection(ctx context.Context, id string) (*quire.Collection, error) {
	c, err := scanCollection(s.queryRow(ctx, "SELECT "+collectionCols+" FROM collections c WHERE c.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("collection")
	}
	return c, wrap("get collection", err)
}

// Collections lists an organization's collections ordered by position
// then id; unless f.Nested, only those at the organization's root. The
// list is not counted.
func (s *Store) Collections(ctx context.Context, orgID string, f quire.CollectionFilter, p quire.Page) (*quire.List[*quire.Collection], error) {
	const tag = "c"
	var w filter
	w.add("c.org_id = ?", orgID)
	if !f.Nested {
		w.add("c.parent_id IS NULL")
	}
	if err := seekAfter[string](&w, p, tag, "c.position", "c.id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + collectionCols + " FROM collections c" + w.where() + " ORDER BY c.position, c.id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanCollection)
	if err != nil {
		return nil, wrap("list collections", err)
	}
	return newList(items, more, quire.Uncounted, func(c *quire.Collection) string {
		return encodeCursor(tag, c.Position, c.ID)
	}), nil
}

// UpdateCollection applies the non-nil fields of upd and stamps the update
// time when anything changes. Returns ENOTFOUND.
func (s *Store) UpdateCollection(ctx context.Context, id string, upd quire.CollectionUpdate) (*quire.Collection, error) {
	var set setter
	setIf(&set, "title", upd.Title)
	setIf(&set, "description", upd.Description)
	if upd.DefaultLevel != nil {
		set.add("default_level", nullString(*upd.DefaultLevel))
	}
	if !set.empty() {
		set.add("updated_at", millis(s.clock()))
	}
	var out *quire.Collection
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.update(ctx, "collections", "id = ?", []any{id}, set, "collection"); err != nil {
			return err
		}
		var err error
		out, err = tx.Collection(ctx, id)
		return err
	})
	return out, wrap("update collection", err)
}

// DeleteCollection deletes a collection with all collections below it and
// their grants, and soft-deletes at the given time every live space they
// hold, moving those spaces to the root so they can be restored there;
// those spaces leave the sites that published them. It reports whether the
// collection existed.
func (s *Store) DeleteCollection(ctx context.Context, id string, at time.Time) (bool, error) {
	var existed bool
	err := s.inTx(ctx, func(tx *Store) error {
		steps := []struct {
			q    string
			args []any
		}{
			{"DELETE FROM site_spaces WHERE space_id IN (SELECT s.id FROM spaces s WHERE s.deleted_at IS NULL AND s.parent_id IN (SELECT id FROM subtree))", nil},
			{"UPDATE spaces SET deleted_at = ? WHERE deleted_at IS NULL AND parent_id IN (SELECT id FROM subtree)", []any{millis(at)}},
			{"UPDATE spaces SET parent_id = NULL WHERE parent_id IN (SELECT id FROM subtree)", nil},
			{"DELETE FROM grants WHERE target_kind = 'collection' AND target_id IN (SELECT id FROM subtree)", nil},
		}
		for _, st := range steps {
			if _, err := tx.exec(ctx, subtreeCTE+st.q, append([]any{id}, st.args...)...); err != nil {
				return err
			}
		}
		n, err := tx.exec(ctx, subtreeCTE+"DELETE FROM collections WHERE id IN (SELECT id FROM subtree)", id)
		existed = n > 0
		return err
	})
	return existed, wrap("delete collection", err)
}

// Ancestors returns the ids of the collections above a collection, nearest
// first. Returns ENOTFOUND if the collection does not exist.
func (s *Store) Ancestors(ctx context.Context, id string) ([]string, error) {
	const q = `WITH RECURSIVE up(id, parent_id, depth) AS (
		SELECT c.id, c.parent_id, 0 FROM collections c WHERE c.id = ?
		UNION ALL
		SELECT c.id, c.parent_id, up.depth + 1 FROM collections c JOIN up ON c.id = up.parent_id
		WHERE up.depth < ` + maxDepth + `)
		SELECT id FROM up ORDER BY depth`
	ids, err := fetchAll(ctx, s, q, []any{id}, scanString)
	if err != nil {
		return nil, wrap("ancestors", err)
	}
	if len(ids) == 0 {
		return nil, quire.NotFound("collection")
	}
	return ids[1:], nil
}
