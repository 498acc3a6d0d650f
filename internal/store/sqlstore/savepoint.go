package sqlstore

import (
	"context"
	"errors"
	"fmt"
)

// spScope is an open savepoint of a transaction. It is sent to the
// database only before the first write made inside it that a rollback
// would have to undo: an operation that only reads, or whose one write is
// a single statement that either applies whole or changes nothing
// (atomicWrite), never sends it, which saves a round trip per operation
// of a batch.
type spScope struct {
	name string
	sent bool
	// bare is set once an atomic write ran while the savepoint was not
	// in the database: a failure after it could not undo it.
	bare bool
	mark txMark
}

// errUnprotected fails a transaction in which a nested function failed
// after a write its savepoint could not undo.
var errUnprotected = errors.New("sqlstore: a nested function failed after a write that could not be undone")

// protect sends the open savepoints not yet in the database, outermost
// first, before a write that a rollback must be able to undo.
func (s *Store) protect(ctx context.Context) error {
	w := s.txw
	if w == nil {
		return nil
	}
	for _, sc := range w.scopes {
		if sc.sent {
			continue
		}
		s.stats.statements.Add(1)
		if _, err := s.tx.ExecContext(ctx, "SAVEPOINT "+sc.name); err != nil {
			return fmt.Errorf("sqlstore: savepoint: %w", err)
		}
		sc.sent = true
	}
	return nil
}

// atomicWrite notes that a write which applies whole or not at all has
// applied without the open savepoints not in the database: they stay
// unsent, and a failure of theirs after it fails the transaction.
func (s *Store) atomicWrite() {
	if s.txw == nil {
		return
	}
	for _, sc := range s.txw.scopes {
		if !sc.sent {
			sc.bare = true
		}
	}
}

// protectQueued sends the open savepoints before queued writes are sent
// when some of those were queued inside a savepoint not yet in the
// database; writes queued before it need none.
func (s *Store) protectQueued(ctx context.Context, kinds queued) error {
	w := s.txw
	for _, sc := range w.scopes {
		if sc.sent {
			continue
		}
		if (kinds&queuedObjects != 0 && len(w.objs) > max(w.objsOut, sc.mark.objs)) ||
			(kinds&queuedRevisions != 0 && len(w.revs) > max(w.revsOut, sc.mark.revs)) ||
			(kinds&queuedCounts != 0 && len(w.counts) > max(w.countsOut, sc.mark.counts)) {
			return s.protect(ctx)
		}
	}
	return nil
}
