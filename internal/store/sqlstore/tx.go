package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"quire/internal/quire"
)

// WithTx runs fn inside one transaction on the write pool. The Store handed
// to fn runs every method on the transaction. The transaction commits when
// fn returns nil and rolls back otherwise; when it fails with a busy,
// serialization or deadlock error the whole of fn is run again, a bounded
// number of times with a short growing pause in between. fn must write
// through the Store it is handed: on engines with a single writer
// connection a write through the outer Store would wait for the
// transaction that waits for it. A nested WithTx, on the Store handed to
// fn, runs in a savepoint of the same transaction (see savepoint).
func (s *Store) WithTx(ctx context.Context, fn func(quire.Store) error) error {
	if s.tx != nil {
		return s.savepoint(ctx, func(tx *Store) error { return fn(tx) })
	}
	return s.inTx(ctx, func(tx *Store) error { return fn(tx) })
}

// savepoint runs fn inside the current transaction, behind a savepoint:
// when fn fails its writes alone are undone, and the transaction goes on.
// Each savepoint of a transaction has a name of its own, so a rollback
// names exactly its savepoint whatever was opened after it. It is sent
// to the database only before fn's first write that a rollback would
// have to undo (see spScope), and one that succeeds is not released: it
// stays open, its writes part of the enclosing level, until the
// transaction commits (which ends every savepoint) or an enclosing
// savepoint rolls back (which ends those opened after it). A failed
// statement leaves a PostgreSQL transaction aborted: when the savepoint
// was never sent the transaction cannot go on, and fails. The statements
// that close a failed savepoint ignore ctx's cancellation, so that a
// cancelled fn does not leave the transaction half closed.
func (s *Store) savepoint(ctx context.Context, fn func(*Store) error) error {
	w := s.txw
	w.savepoints++
	sc := &spScope{name: fmt.Sprintf("quire_sp%d", w.savepoints), mark: w.mark()}
	w.scopes = append(w.scopes, sc)
	err := fn(s)
	w.scopes = w.scopes[:len(w.scopes)-1]
	if err == nil {
		return nil
	}
	w.rollback(sc.mark)
	s.forgetAhead()
	if sc.bare {
		w.err = errors.Join(w.err, errUnprotected)
	}
	if !sc.sent {
		return err
	}
	closing := context.WithoutCancel(ctx)
	s.stats.statements.Add(2)
	if _, rerr := s.tx.ExecContext(closing, "ROLLBACK TO SAVEPOINT "+sc.name); rerr != nil {
		return errors.Join(err, fmt.Errorf("sqlstore: rollback to savepoint: %w", rerr))
	}
	if _, rerr := s.tx.ExecContext(closing, "RELEASE SAVEPOINT "+sc.name); rerr != nil {
		return errors.Join(err, fmt.Errorf("sqlstore: release savepoint: %w", rerr))
	}
	return err
}

// inTx is WithTx for the store's own multi-statement writes, handing fn the
// concrete type.
func (s *Store) inTx(ctx context.Context, fn func(*Store) error) error {
	if s.tx != nil {
		return fn(s)
	}
	var err error
	for attempt := 1; ; attempt++ {
		err = s.runTx(ctx, fn)
		if err == nil || attempt >= s.attempts || s.dialect.Classify(err) != FailRetry {
			return err
		}
		if berr := backoff(ctx, attempt); berr != nil {
			return errors.Join(err, berr)
		}
	}
}

// backoff waits before another attempt: 5 ms after the first, growing with
// the square of the attempt, or until ctx ends.
func backoff(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(attempt*attempt) * 5 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// runTx runs fn once in a fresh transaction.
func (s *Store) runTx(ctx context.Context, fn func(*Store) error) (err error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: begin: %w", err)
	}
	inner := *s
	inner.tx = tx
	inner.txw = &txWrites{}
	inner.txs = &txStatements{}
	defer s.prepareLearned(ctx, inner.txs)
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(&inner); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := inner.flushWrites(ctx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: commit: %w", err)
	}
	for _, r := range inner.txw.revs {
		s.revs.put(r)
	}
	return nil
}
