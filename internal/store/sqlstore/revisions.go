package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"quire/internal/quire"
)

// revisionCols are the columns scanRevision reads, for a revisions table
// aliased r.
const revisionCols = `r.id, r.space_id, r.parents, r.type, r.pages_root, r.slugs_root, r.files_root,
	r.merged_from, r.created_by, r.created_at, r.git`

// scanRevision reads the columns of revisionCols.
func scanRevision(sc scanner) (*quire.Revision, error) {
	var (
		r       quire.Revision
		parents string
		created int64
		git     sql.NullString
	)
	err := sc.Scan(&r.ID, &r.SpaceID, &parents, &r.Type, &r.Pages, &r.Slugs, &r.Files,
		&r.MergedFrom, &r.CreatedBy, &created, &git)
	if err != nil {
		return nil, err
	}
	if r.Parents, err = decodeStrings(parents); err != nil {
		return nil, err
	}
	r.CreatedAt = fromMillis(created)
	if git.Valid {
		r.Git = &quire.GitCommit{}
		if err := json.Unmarshal([]byte(git.String), r.Git); err != nil {
			return nil, fmt.Errorf("decode git commit: %w", err)
		}
	}
	return &r, nil
}

// encodeGit renders a revision's Git commit as stored JSON text, or nil
// for NULL.
func encodeGit(g *quire.GitCommit) any {
	if g == nil {
		return nil
	}
	b, _ := json.Marshal(g) // strings and booleans only: cannot fail
	return string(b)
}

// CreateRevision stores a revision. An existing id is ECONFLICT, an
// unknown space EINVALID. Inside a transaction the row is queued and sent
// with the transaction's other queued writes (see txWrites), so those
// errors come from the statement that sends it, at the latest the
// commit.
func (s *Store) CreateRevision(ctx context.Context, r *quire.Revision) error {
	// Cache the row as a read would return it.
	stored := copyRevision(r)
	stored.CreatedAt = fromMillis(millis(r.CreatedAt))
	if s.txw != nil {
		s.txw.revs = append(s.txw.revs, stored)
		return nil
	}
	_, err := s.exec(ctx, `INSERT INTO revisions
		(id, space_id, parents, type, pages_root, slugs_root, files_root, merged_from, created_by, created_at, git)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.SpaceID, encodeStrings(r.Parents), r.Type, r.Pages, r.Slugs, r.Files,
		r.MergedFrom, r.CreatedBy, millis(r.CreatedAt), encodeGit(r.Git))
	if err != nil {
		return s.conflict("create revision", err, "a revision with this id already exists")
	}
	s.revs.put(stored)
	return nil
}

// Revision returns a revision of the space, or ENOTFOUND when there is no
// such revision or it belongs to another space. Revisions never change,
// so one read or committed before is answered from memory (see
// revisionCache), as is one created earlier in the same transaction.
func (s *Store) Revision(ctx context.Context, spaceID, id string) (*quire.Revision, error) {
	if s.txw != nil {
		if r, ok := s.txw.revision(spaceID, id); ok {
			return r, nil
		}
	}
	if r, ok := s.revs.get(spaceID, id); ok {
		return r, nil
	}
	r, err := scanRevision(s.queryRow(ctx, "SELECT "+revisionCols+" FROM revisions r WHERE r.id = ? AND r.space_id = ?", id, spaceID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("revision")
	}
	if err != nil {
		return nil, wrap("get revision", err)
	}
	s.revs.put(r)
	return r, nil
}

// AdvanceSpaceRevision moves a space's current revision from prev to next
// with one compare-and-swap statement, so that of two writers racing from
// the same revision, in this process or another, exactly one wins. The
// loser gets a quire.Stale ECONFLICT; an unknown space is ENOTFOUND.
//
// Counter moves the transaction queued for the space alone (a merge's
// change request leaving the open or draft count) ride on the same
// statement, which saves one round trip per merge.
func (s *Store) AdvanceSpaceRevision(ctx context.Context, spaceID, prev, next string) error {
	q, args := "UPDATE spaces SET revision = ?, updated_at = ?", []any{next, millis(s.clock())}
	open, draft, counted := s.txw.takeCounts(spaceID)
	if counted {
		q += ", change_requests_open = change_requests_open + ?, change_requests_draft = change_requests_draft + ?"
		args = append(args, open, draft)
	}
	n, err := s.exec(ctx, q+" WHERE id = ? AND revision = ?", append(args, spaceID, prev)...)
	if counted && (err != nil || n == 0) {
		s.txw.untakeCounts()
	}
	if err != nil {
		return wrap("advance space revision", err)
	}
	if n > 0 {
		return nil
	}
	if _, err := s.Space(ctx, spaceID); err != nil {
		return err
	}
	return quire.Stale("the space's content changed meanwhile; try again")
}
