package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// spaceCols are the columns scanSpace reads, for a spaces table aliased s.
const spaceCols = `s.id, s.org_id, s.title, s.emoji, s.icon_url, s.visibility, s.edit_mode,
	s.parent_id, s.language, s.default_level, s.merge_rules, s.revision, s.position,
	s.created_at, s.updated_at, s.deleted_at,
	s.comments, s.change_requests, s.change_requests_open, s.change_requests_draft`

// spaceColCount is the number of columns in spaceCols.
const spaceColCount = 20

// scanSpace reads the columns of spaceCols.
func scanSpace(sc scanner) (*quire.Space, error) {
	var r spaceReader
	return r.scan(sc)
}

// spaceReader reads rows of spaceCols. A page of spaces is the largest
// common read, so the row is taken as the driver's values and converted
// here, which spares database/sql's reflective conversions into the
// domain's named types and int fields; one reader serves a whole page.
type spaceReader struct {
	v    [spaceColCount]any
	dest [spaceColCount]any
}

// scan reads one row.
func (r *spaceReader) scan(sc scanner) (*quire.Space, error) {
	if r.dest[0] == nil {
		for i := range r.v {
			r.dest[i] = &r.v[i]
		}
	}
	if err := sc.Scan(r.dest[:]...); err != nil {
		return nil, err
	}
	v := &r.v
	var c colReader
	sp := &quire.Space{
		ID: c.str(v[0]), OrgID: c.str(v[1]), Title: c.str(v[2]), Emoji: c.str(v[3]), IconURL: c.str(v[4]),
		Visibility: quire.Visibility(c.str(v[5])), EditMode: quire.EditMode(c.str(v[6])),
		Parent: c.str(v[7]), Language: c.str(v[8]), DefaultLevel: quire.DefaultLevel(c.str(v[9])),
		Revision: c.str(v[11]), Position: c.str(v[12]),
		CreatedAt: fromMillis(c.int(v[13])), UpdatedAt: fromMillis(c.int(v[14])),
		Comments: int(c.int(v[16])), ChangeRequests: int(c.int(v[17])),
		ChangeRequestsOpen: int(c.int(v[18])), ChangeRequestsDraft: int(c.int(v[19])),
	}
	if v[15] != nil {
		t := fromMillis(c.int(v[15]))
		sp.DeletedAt = &t
	}
	if c.err != nil {
		return nil, c.err
	}
	var err error
	if sp.MergeRules, err = decodeMergeRules(c.str(v[10])); err != nil {
		return nil, err
	}
	return sp, c.err
}

// CreateSpace stores a space together with its first revision, whose id
// is sp.Revision. The counters start at zero.
func (s *Store) CreateSpace(ctx context.Context, sp *quire.Space) error {
	if sp.Revision == "" {
		return quire.Invalid("revision", "must not be empty")
	}
	err := s.inTx(ctx, func(tx *Store) error {
		_, err := tx.exec(ctx, `INSERT INTO spaces
			(id, org_id, title, emoji, icon_url, visibility, edit_mode, parent_id, language,
			 default_level, merge_rules, revision, position, created_at, updated_at, deleted_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			sp.ID, sp.OrgID, sp.Title, sp.Emoji, sp.IconURL, sp.Visibility, sp.EditMode,
			nullString(sp.Parent), sp.Language, nullString(sp.DefaultLevel), encodeMergeRules(sp.MergeRules),
			sp.Revision, sp.Position, millis(sp.CreatedAt), millis(sp.UpdatedAt), nullMillis(sp.DeletedAt))
		if err != nil {
			return tx.conflict("create space", err, "a space with this id already exists")
		}
		_, err = tx.exec(ctx, `INSERT INTO revisions (id, space_id, parents, type, created_at)
			VALUES (?, ?, '[]', 'edits', ?)`, sp.Revision, sp.ID, millis(sp.CreatedAt))
		if err != nil {
			return tx.conflict("create space", err, "a revision with this id already exists")
		}
		return nil
	})
	if err != nil {
		return wrap("create space", err)
	}
	sp.Comments, sp.ChangeRequests, sp.ChangeRequestsOpen, sp.ChangeRequestsDraft = 0, 0, 0, 0
	return nil
}

// Space returns a space, deleted or not, or ENOTFOUND.
func (s *Store) Space(ctx context.Context, id string) (*quire.Space, error) {
	sp, err := scanSpace(s.queryRow(ctx, "SELECT "+spaceCols+" FROM spaces s WHERE s.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("space")
	}
	return sp, wrap("get space", err)
}

// Spaces lists live spaces ordered by position then id: those of
// f.OrgID, and with f.Parent set only those directly in that collection
// ("" for the organization's root). The list is not counted: each page is
// one index range scan however many spaces there are.
func (s *Store) Spaces(ctx context.Context, f quire.SpaceFilter, p quire.Page) (*quire.List[*quire.Space], error) {
	const tag = "s"
	var w filter
	w.add("s.deleted_at IS NULL")
	if f.OrgID != "" {
		w.add("s.org_id = ?", f.OrgID)
	}
	if f.Parent != nil {
		if *f.Parent == "" {
			w.add("s.parent_id IS NULL")
		} else {
			w.add("s.parent_id = ?", *f.Parent)
		}
	}
	if err := seekAfter[string](&w, p, tag, "s.position", "s.id", false); err != nil {
		return nil, err
	}
	cursor := func(sp *quire.Space) string { return encodeCursor(tag, sp.Position, sp.ID) }
	// Outside a transaction a page read before is served again while the
	// organization's space version has not moved. Inside one, the rows
	// may hold writes that are not committed yet: never cached.
	cached := s.tx == nil && f.OrgID != ""
	var key spacePageKey
	var version int64
	if cached {
		key = spacePageKey{org: f.OrgID, cursor: p.Cursor, size: p.Size()}
		if f.Parent != nil {
			key.parent, key.byParent = *f.Parent, true
		}
		var err error
		if version, err = s.spaceVersion(ctx, f.OrgID); err != nil {
			return nil, wrap("list spaces", err)
		}
		if items, more, ok := s.spacePages.get(key, version); ok {
			return newList(items, more, quire.Uncounted, cursor), nil
		}
	}
	q := "SELECT " + spaceCols + " FROM spaces s" + w.where() + " ORDER BY s.position, s.id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), new(spaceReader).scan)
	if err != nil {
		return nil, wrap("list spaces", err)
	}
	if cached {
		s.spacePages.put(key, version, items, more)
	}
	return newList(items, more, quire.Uncounted, cursor), nil
}

// UpdateSpace applies the non-nil fields of upd and stamps the update time
// when anything changes. Returns ENOTFOUND.
func (s *Store) UpdateSpace(ctx context.Context, id string, upd quire.SpaceUpdate) (*quire.Space, error) {
	var set setter
	setIf(&set, "title", upd.Title)
	setIf(&set, "emoji", upd.Emoji)
	setIf(&set, "icon_url", upd.IconURL)
	setIf(&set, "visibility", upd.Visibility)
	setIf(&set, "edit_mode", upd.EditMode)
	setIf(&set, "language", upd.Language)
	if upd.DefaultLevel != nil {
		set.add("default_level", nullString(*upd.DefaultLevel))
	}
	if upd.MergeRules != nil {
		set.add("merge_rules", encodeMergeRules(*upd.MergeRules))
	}
	if !set.empty() {
		set.add("updated_at", millis(s.clock()))
	}
	return s.updateSpace(ctx, id, set, "update space")
}

// updateSpace applies set to a space and returns the result.
func (s *Store) updateSpace(ctx context.Context, id string, set setter, op string) (*quire.Space, error) {
	var out *quire.Space
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.update(ctx, "spaces", "id = ?", []any{id}, set, "space"); err != nil {
			return err
		}
		var err error
		out, err = tx.Space(ctx, id)
		return err
	})
	return out, wrap(op, err)
}

// DeleteSpace marks a live space deleted at the given time; it reports
// whether a live space was there. The space keeps its grants and
// revisions until it is purged; it leaves the sites that published it.
func (s *Store) DeleteSpace(ctx context.Context, id string, at time.Time) (bool, error) {
	var n int64
	err := s.inTx(ctx, func(tx *Store) error {
		var err error
		if n, err = tx.exec(ctx, "UPDATE spaces SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL", millis(at), id); err != nil || n == 0 {
			return err
		}
		_, err = tx.exec(ctx, "DELETE FROM site_spaces WHERE space_id = ?", id)
		return err
	})
	return n > 0, wrap("delete space", err)
}

// RestoreSpace clears a space's deletion time. Returns ENOTFOUND.
func (s *Store) RestoreSpace(ctx context.Context, id string) (*quire.Space, error) {
	var set setter
	set.add("deleted_at", nil)
	return s.updateSpace(ctx, id, set, "restore space")
}

// PurgeSpaces removes for good the spaces deleted before the given time,
// with their revisions and grants, and returns how many went.
func (s *Store) PurgeSpaces(ctx context.Context, deletedBefore time.Time) (int, error) {
	var n int64
	cutoff := millis(deletedBefore)
	err := s.inTx(ctx, func(tx *Store) error {
		_, err := tx.exec(ctx, `DELETE FROM grants WHERE target_kind = 'space'
			AND target_id IN (SELECT s.id FROM spaces s WHERE s.deleted_at < ?)`, cutoff)
		if err != nil {
			return err
		}
		n, err = tx.exec(ctx, "DELETE FROM spaces WHERE deleted_at < ?", cutoff)
		return err
	})
	return int(n), wrap("purge spaces", err)
}

// DeletedSpaces lists the spaces of an organization deleted at or after
// since, most recently deleted first, at most limit of them. The partial
// index on deleted_at keeps it to the deleted rows.
func (s *Store) DeletedSpaces(ctx context.Context, orgID string, since time.Time, limit int) ([]*quire.Space, error) {
	q := "SELECT " + spaceCols + ` FROM spaces s WHERE s.deleted_at IS NOT NULL AND s.deleted_at >= ? AND s.org_id = ?
		ORDER BY s.deleted_at DESC, s.id LIMIT ?`
	items, err := fetchAll(ctx, s, q, []any{millis(since), orgID, limit}, new(spaceReader).scan)
	return items, wrap("list deleted spaces", err)
}
