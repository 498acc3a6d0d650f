package sqlstore

import (
	"context"
	"fmt"
	"slices"

	"quire/internal/quire"
)

// revisionBatch is how many revisions one statement inserts: 11 values a
// row keeps it far under each engine's limit on parameters.
const revisionBatch = 200

// txWrites are the objects and revisions a transaction stores, held back
// and sent together in a few multi-row statements: before the transaction
// commits, and before any other statement of the transaction but those
// declared not to read them (keeping). Both are blind inserts (an object is content-addressed, a revision id
// is new), so deferring them changes no answer inside the transaction but
// saves a round trip each, which adds up when many operations share one
// transaction (a space's batch of merges). A savepoint that rolls back
// drops what it queued and queues again what it had sent of its parents'
// writes, since the rollback undid those too. Revisions created here are
// found by Revision before they are sent, and reach the shared cache
// only once the transaction commits.
type txWrites struct {
	revs    []*quire.Revision
	revsOut int // revs[:revsOut] are in the database
	objs    []objectWrite
	objsOut int // objs[:objsOut] are in the database
	// counts are moves of spaces' open and draft change request counters.
	counts    []countMove
	countsOut int   // counts[:countsOut] are in the database
	takenFrom int   // countsOut before the last takeCounts
	err       error // a failed send, which fails the commit
	// savepoints counts the savepoints opened, to name each.
	savepoints int
	// scopes are the open savepoints, innermost last.
	scopes []*spScope
	// ahead is what ReadChangeRequestsAhead read, until a write.
	ahead *readAhead
}

// objectWrite is one object queued for storage.
type objectWrite struct {
	key  string
	data []byte
}

// countMove is a change of a space's open and draft change request
// counters.
type countMove struct {
	spaceID     string
	open, draft int
}

// txMark is where a savepoint began in a transaction's txWrites.
type txMark struct{ revs, revsOut, objs, objsOut, counts, countsOut int }

// mark returns the current position, for a savepoint.
func (w *txWrites) mark() txMark {
	return txMark{len(w.revs), w.revsOut, len(w.objs), w.objsOut, len(w.counts), w.countsOut}
}

// rollback forgets what was queued since m and marks as unsent what was
// sent since m: the savepoint's rollback undid it.
func (w *txWrites) rollback(m txMark) {
	w.revs = w.revs[:m.revs]
	w.revsOut = min(w.revsOut, m.revsOut)
	w.objs = w.objs[:m.objs]
	w.objsOut = min(w.objsOut, m.objsOut)
	w.counts = w.counts[:m.counts]
	w.countsOut = min(w.countsOut, m.countsOut)
}

// pending reports whether anything is queued and unsent.
func (w *txWrites) pending() bool {
	return w.revsOut < len(w.revs) || w.objsOut < len(w.objs) || w.countsOut < len(w.counts)
}

// takeCounts returns the sum of the unsent counter moves when they are
// all of spaceID, and marks them sent, for a statement that updates the
// space's row anyway; the caller puts them back with untake when that
// statement does not apply them. ok is false when there are none, or
// when some are of another space.
func (w *txWrites) takeCounts(spaceID string) (open, draft int, ok bool) {
	if w == nil || w.countsOut == len(w.counts) {
		return 0, 0, false
	}
	for _, m := range w.counts[w.countsOut:] {
		if m.spaceID != spaceID {
			return 0, 0, false
		}
		open, draft = open+m.open, draft+m.draft
	}
	w.takenFrom, w.countsOut = w.countsOut, len(w.counts)
	return open, draft, true
}

// untakeCounts marks as unsent again the moves the last takeCounts took.
func (w *txWrites) untakeCounts() { w.countsOut = w.takenFrom }

// revision returns a copy of a revision of the space created in the
// transaction.
func (w *txWrites) revision(spaceID, id string) (*quire.Revision, bool) {
	for _, r := range w.revs {
		if r.ID == id && r.SpaceID == spaceID {
			return copyRevision(r), true
		}
	}
	return nil, false
}

// queued names kinds of the writes a transaction holds back.
type queued uint8

// The kinds of queued writes.
const (
	queuedObjects queued = 1 << iota
	queuedRevisions
	queuedCounts
	queuedAll = queuedObjects | queuedRevisions | queuedCounts
)

// keeping returns s for statements that read none of the queued writes of
// kinds: running them leaves those writes queued. Every other statement
// of a transaction sends all queued writes first, so a statement that
// needs them never depends on declaring it; a statement declared here is
// one a merge batch runs per merge, and its declaration states what it
// reads.
func (s *Store) keeping(kinds queued) *Store {
	if s.txw == nil {
		return s
	}
	out := *s
	out.keep = kinds
	return &out
}

// sendQueued sends, before a statement, the queued writes it may read:
// all of them but the kinds s keeps. A failure is kept and fails the
// commit.
func (s *Store) sendQueued(ctx context.Context) error {
	w := s.txw
	if w == nil || !w.pending() {
		return nil
	}
	return s.send(ctx, queuedAll&^s.keep)
}

// flushWrites sends every queued write of the transaction.
func (s *Store) flushWrites(ctx context.Context) error {
	return s.send(ctx, queuedAll)
}

// send sends the queued objects, revisions and counter moves of kinds.
func (s *Store) send(ctx context.Context, kinds queued) error {
	w := s.txw
	if w.err != nil {
		return w.err
	}
	if err := s.protectQueued(ctx, kinds); err != nil {
		w.err = err
		return err
	}
	if kinds&queuedObjects != 0 && w.objsOut < len(w.objs) {
		if err := s.sendObjects(ctx, w.objs[w.objsOut:]); err != nil {
			w.err = wrap("put objects", err)
			return w.err
		}
		w.objsOut = len(w.objs)
	}
	if kinds&queuedRevisions != 0 && w.revsOut < len(w.revs) {
		if err := s.sendRevisions(ctx, w.revs[w.revsOut:]); err != nil {
			w.err = s.conflict("create revision", err, "a revision with this id already exists")
			return w.err
		}
		w.revsOut = len(w.revs)
	}
	if kinds&queuedCounts != 0 && w.countsOut < len(w.counts) {
		if err := s.sendCounts(ctx, w.counts[w.countsOut:]); err != nil {
			w.err = wrap("count change requests", err)
			return w.err
		}
		w.countsOut = len(w.counts)
	}
	return nil
}

// sendObjects inserts objects, each key once, in key order so that
// concurrent writers of the same keys lock them in the same order; a key
// already stored keeps its bytes and only has its written time moved to
// now, which keeps a collection that began before from deleting it.
func (s *Store) sendObjects(ctx context.Context, objs []objectWrite) error {
	if len(objs) == 0 {
		return nil
	}
	byKey := make(map[string][]byte, len(objs))
	for _, o := range objs {
		byKey[o.key] = o.data
	}
	return insertObjects(byKey, millis(s.clock()), func(q string, args []any) error {
		return s.execQueued(ctx, q, args)
	})
}

// sendRevisions inserts revisions.
func (s *Store) sendRevisions(ctx context.Context, revs []*quire.Revision) error {
	for start := 0; start < len(revs); start += revisionBatch {
		batch := revs[start:min(start+revisionBatch, len(revs))]
		args := make([]any, 0, 11*len(batch))
		for _, r := range batch {
			args = append(args, r.ID, r.SpaceID, encodeStrings(r.Parents), r.Type, r.Pages, r.Slugs, r.Files,
				r.MergedFrom, r.CreatedBy, millis(r.CreatedAt), encodeGit(r.Git))
		}
		q := `INSERT INTO revisions
			(id, space_id, parents, type, pages_root, slugs_root, files_root, merged_from, created_by, created_at, git)
			VALUES ` + rowPlaceholders(len(batch), 11)
		if err := s.execQueued(ctx, q, args); err != nil {
			return err
		}
	}
	return nil
}

// execQueued runs one statement of queued writes on the transaction.
func (s *Store) execQueued(ctx context.Context, q string, args []any) error {
	s.stats.statements.Add(1)
	if _, err := s.tx.ExecContext(ctx, s.dialect.Rebind(q), args...); err != nil {
		return fmt.Errorf("sending queued writes: %w", err)
	}
	return nil
}

// sendCounts applies counter moves, one statement per space, spaces in
// order.
func (s *Store) sendCounts(ctx context.Context, moves []countMove) error {
	sum := map[string]countMove{}
	for _, m := range moves {
		t := sum[m.spaceID]
		t.open, t.draft = t.open+m.open, t.draft+m.draft
		sum[m.spaceID] = t
	}
	s.forgetAhead()
	ids := make([]string, 0, len(sum))
	for id := range sum {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		t := sum[id]
		if t.open == 0 && t.draft == 0 {
			continue
		}
		if err := s.execQueued(ctx, `UPDATE spaces SET change_requests_open = change_requests_open + ?,
			change_requests_draft = change_requests_draft + ? WHERE id = ?`, []any{t.open, t.draft, id}); err != nil {
			return err
		}
	}
	return nil
}
