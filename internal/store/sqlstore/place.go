package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// checkParent returns EINVALID unless parent is "" (the root) or a
// collection of the organization.
func (s *Store) checkParent(ctx context.Context, orgID, parent string) error {
	if parent == "" {
		return nil
	}
	var org string
	err := s.queryRow(ctx, "SELECT org_id FROM collections WHERE id = ?", parent).Scan(&org)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && org != orgID) {
		return quire.Invalid("parent", "collection %s does not exist in the organization", parent)
	}
	return err
}

// PlaceSpace sets a space's organization, parent collection ("" for the
// root) and position, leaving its grants alone. Returns ENOTFOUND, or
// EINVALID when the parent is not a collection of that organization.
func (s *Store) PlaceSpace(ctx context.Context, id, orgID, parent, position string) (*quire.Space, error) {
	var out *quire.Space
	err := s.inTx(ctx, func(tx *Store) error {
		_, err := tx.Space(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.checkParent(ctx, orgID, parent); err != nil {
			return err
		}
		var set setter
		set.add("org_id", orgID)
		set.add("parent_id", nullString(parent))
		set.add("position", position)
		set.add("updated_at", millis(tx.clock()))
		if out, err = tx.updateSpace(ctx, id, set, "place space"); err != nil {
			return err
		}
		// A space leaves the sites of the organization it leaves.
		_, err = tx.exec(ctx, `DELETE FROM site_spaces WHERE space_id = ?
			AND site_id NOT IN (SELECT t.id FROM sites t WHERE t.org_id = ?)`, id, orgID)
		return err
	})
	return out, wrap("place space", err)
}

// PlaceCollection sets a collection's organization, parent ("" for the
// root) and position, and moves every collection and space below it to
// that organization too, leaving grants alone. Returns ENOTFOUND, or
// EINVALID when the parent is not a collection of that organization or
// lies inside the collection itself.
func (s *Store) PlaceCollection(ctx context.Context, id, orgID, parent, position string) (*quire.Collection, error) {
	var out *quire.Collection
	err := s.inTx(ctx, func(tx *Store) error {
		c, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		if parent != "" {
			n, err := tx.count(ctx, subtreeCTE+"SELECT COUNT(*) FROM subtree WHERE id = ?", id, parent)
			if err != nil {
				return err
			}
			if n > 0 {
				return quire.Invalid("parent", "a collection cannot be placed inside itself")
			}
		}
		if err := tx.checkParent(ctx, orgID, parent); err != nil {
			return err
		}
		var set setter
		set.add("org_id", orgID)
		set.add("parent_id", nullString(parent))
		set.add("position", position)
		set.add("updated_at", millis(tx.clock()))
		if err := tx.update(ctx, "collections", "id = ?", []any{id}, set, "collection"); err != nil {
			return err
		}
		if c.OrgID != orgID {
			if err := tx.moveSubtree(ctx, id, orgID); err != nil {
				return err
			}
		}
		out, err = tx.Collection(ctx, id)
		return err
	})
	return out, wrap("place collection", err)
}

// moveSubtree moves the collections and spaces of a collection's subtree
// to another organization, out of the sites of the one they leave.
func (s *Store) moveSubtree(ctx context.Context, id, orgID string) error {
	steps := []string{
		"UPDATE collections SET org_id = ? WHERE id IN (SELECT id FROM subtree)",
		"UPDATE spaces SET org_id = ? WHERE parent_id IN (SELECT id FROM subtree)",
		// Its spaces leave the sites of the organization they leave.
		`DELETE FROM site_spaces WHERE space_id IN (SELECT s.id FROM spaces s WHERE s.parent_id IN (SELECT id FROM subtree))
			AND site_id NOT IN (SELECT t.id FROM sites t WHERE t.org_id = ?)`,
	}
	for _, q := range steps {
		if _, err := s.exec(ctx, subtreeCTE+q, id, orgID); err != nil {
			return err
		}
	}
	return nil
}

// Siblings lists the live spaces and the collections directly under parent
// ("" for the root) in an organization, merged and ordered by position
// then id.
func (s *Store) Siblings(ctx context.Context, orgID, parent string) ([]quire.Sibling, error) {
	spaceParent, collParent := "s.parent_id IS NULL", "c.parent_id IS NULL"
	args := []any{orgID}
	if parent != "" {
		spaceParent, collParent = "s.parent_id = ?", "c.parent_id = ?"
		args = append(args, parent)
	}
	args = append(args, args...)
	q := `SELECT 'space' AS kind, s.id AS id, s.position AS position FROM spaces s
		WHERE s.org_id = ? AND s.deleted_at IS NULL AND ` + spaceParent + `
		UNION ALL
		SELECT 'collection', c.id, c.position FROM collections c
		WHERE c.org_id = ? AND ` + collParent + `
		ORDER BY position, id`
	out, err := fetchAll(ctx, s, q, args, func(sc scanner) (quire.Sibling, error) {
		var sib quire.Sibling
		err := sc.Scan(&sib.Kind, &sib.ID, &sib.Position)
		return sib, err
	})
	return out, wrap("siblings", err)
}
