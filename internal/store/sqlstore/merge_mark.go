package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"quire/internal/quire"
)

// writeChainer is a Dialect whose engine runs several writes in one
// statement (PostgreSQL's data-modifying WITH).
type writeChainer interface {
	ChainsWrites() bool
}

// chainsWrites reports whether the store's engine runs several writes in
// one statement.
func (s *Store) chainsWrites() bool {
	d, ok := s.dialect.(writeChainer)
	return ok && d.ChainsWrites()
}

// MarkMerged records a merge: the change request's compare-and-swap on
// its revision and status, then the space's on its revision, carrying the
// counter moves. Where the engine chains writes it is one statement, the
// space's row locked first, then the change request's; elsewhere two, the
// change request's first. The one statement applies whole or not at all,
// so an operation whose only direct write it is needs no savepoint in
// the database (see spScope); the lock order, the reverse of a status
// change's, can deadlock with one, which the database detects and the
// transaction's retry absorbs. Counter moves the
// transaction queued for the space ride along, and the content event of
// the move is inserted with it. The one statement answers the space's
// row as it left it, which keeps the transaction's read-ahead current
// (see ReadChangeRequestsAhead). When nothing matched, the rows are read
// to tell which moved.
func (s *Store) MarkMerged(ctx context.Context, m quire.MergeMark) error {
	merged := quire.CRMerged
	oldOpen, oldDraft := statusCounts(m.From)
	newOpen, newDraft := statusCounts(merged)
	open, draft := newOpen-oldOpen, newDraft-oldDraft
	q, d, counted := s.txw.takeCounts(m.SpaceID)
	open, draft = open+q, draft+d
	now := millis(s.clock())
	crSet := `UPDATE change_requests SET status = ?, revision_merged = ?, updated_at = ?
		WHERE space_id = ? AND id = ? AND revision = ? AND status = ?`
	crArgs := []any{merged, m.Next, now, m.SpaceID, m.ChangeRequestID, m.Revision, m.From}
	spSet := `UPDATE spaces SET revision = ?, updated_at = ?,
		change_requests_open = change_requests_open + ?, change_requests_draft = change_requests_draft + ?
		WHERE id = ? AND revision = ?`
	spArgs := []any{m.Next, now, open, draft, m.SpaceID, m.Prev}
	evAdd := `INSERT INTO content_events (space_id, prev_revision, next_revision, created_at)`
	evArgs := []any{m.SpaceID, m.Prev, m.Next, now}
	var done bool
	// The read-ahead of the transaction, which the writes below drop, is
	// put back with the space's row as the statement left it.
	var ahead *readAhead
	if s.txw != nil {
		ahead = s.txw.ahead
	}
	err := s.inTx(ctx, func(tx *Store) error {
		// Its statements read no object and no revision: those a merge
		// batch queued stay queued.
		tx = tx.keeping(queuedObjects | queuedRevisions)
		if tx.chainsWrites() {
			// l locks the space's row while it is still on Prev, so the
			// change request is updated only if the space will be, and
			// the statement applies whole or not at all. It answers the
			// space's row as updated, no row when nothing was.
			sp, err := scanSpace(tx.queryRowAtomic(ctx, `WITH l AS (SELECT id FROM spaces WHERE id = ? AND revision = ? FOR UPDATE),
				c AS (`+crSet+` AND EXISTS (SELECT 1 FROM l) RETURNING 1),
				u AS (`+strings.Replace(spSet, "UPDATE spaces SET", "UPDATE spaces AS s SET", 1)+
				` AND EXISTS (SELECT 1 FROM c) RETURNING `+spaceCols+`),
				e AS (`+evAdd+` SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM u) RETURNING 1)
				SELECT * FROM u`,
				append(append(append([]any{m.SpaceID, m.Prev}, crArgs...), spArgs...), evArgs...)...))
			if errors.Is(err, sql.ErrNoRows) {
				return nil
			} else if err != nil {
				return err
			}
			done = true
			tx.atomicWrite()
			if ahead != nil && ahead.space.ID == m.SpaceID && tx.txw == s.txw {
				sp.OrgMergeRules = ahead.space.OrgMergeRules
				ahead.space = sp
				delete(ahead.crs, m.ChangeRequestID)
				s.txw.ahead = ahead
			}
			return nil
		}
		n, err := tx.exec(ctx, crSet, crArgs...)
		if err != nil || n == 0 {
			return err
		}
		n, err = tx.exec(ctx, spSet, spArgs...)
		if done = n > 0; !done || err != nil {
			return err
		}
		_, err = tx.exec(ctx, evAdd+` VALUES (?, ?, ?, ?)`, evArgs...)
		return err
	})
	if err == nil && done {
		return nil
	}
	if counted {
		s.txw.untakeCounts()
	}
	if err != nil {
		return wrap("mark merged", err)
	}
	return s.whyNotMerged(ctx, m)
}

// whyNotMerged tells why a merge's compare-and-swap matched nothing.
func (s *Store) whyNotMerged(ctx context.Context, m quire.MergeMark) error {
	cur, err := s.changeRequestByID(ctx, m.SpaceID, m.ChangeRequestID)
	if err != nil {
		return err
	}
	// The change request's own update may have applied before the
	// space's did not: then the space moved.
	ours := cur.Status == quire.CRMerged && cur.RevisionMerged == m.Next
	switch {
	case ours:
	case cur.Revision != m.Revision:
		return quire.Stale("the change request's content changed meanwhile; try again")
	case cur.Status != m.From:
		return quire.Stale("the change request is %s now; try again", cur.Status)
	}
	var rev string
	err = s.queryRow(ctx, "SELECT revision FROM spaces WHERE id = ?", m.SpaceID).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return quire.NotFound("space")
	} else if err != nil {
		return wrap("mark merged", err)
	}
	return quire.Stale("the space's content changed meanwhile; try again")
}
