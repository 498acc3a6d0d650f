// Package sqlstore implements quire.Store over database/sql with
// handwritten SQL shared by every supported engine. Queries are written
// with ? placeholders; a Dialect rebinds them and classifies the engine's
// errors, so the engine packages only open connections and run
// migrations.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"quire/internal/quire"
)

// Store is the SQL implementation of quire.Store. Outside a transaction
// reads go to the read pool and writes to the write pool (the same pool on
// engines that need no split); inside WithTx every statement runs on the
// transaction.
type Store struct {
	read     *sql.DB
	write    *sql.DB
	tx       *sql.Tx
	dialect  Dialect
	now      func() time.Time
	attempts int
	stmts    *stmtCache
	// wstmts are the write pool's prepared statements, on engines whose
	// driver keeps none itself; nil elsewhere (see onTx).
	wstmts *stmtCache
	// closers run in Close, after the pools are closed (see WithCloser).
	closers []func() error
	// txs, inside a transaction, are the statements it ran as text.
	txs   *txStatements
	stats *counters
	// spacePages serves pages of the space list read before, while the
	// database vouches they are unchanged.
	spacePages *spacePages
	revs       *revisionCache
	// txw, inside a transaction, are its queued writes.
	txw *txWrites
	// keep are the kinds of queued writes this Store's statements leave
	// queued (see keeping); none unless declared.
	keep queued
	// openPool is how the engine opened the pools (see WithPoolOpener).
	openPool PoolOpener
}

var _ quire.Store = (*Store)(nil)

// Option configures a Store.
type Option func(*Store)

// WithClock replaces the clock the store stamps its writes with
// (updated-at times, objects' written times); time.Now by default.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// WithAttempts sets how many times WithTx runs a transaction that fails
// with a busy, serialization or deadlock error (at least 1).
func WithAttempts(n int) Option {
	return func(s *Store) {
		if n >= 1 {
			s.attempts = n
		}
	}
}

// WithCloser adds fn to what Close runs after closing the pools: an
// engine's own background work on the database.
func WithCloser(fn func() error) Option {
	return func(s *Store) { s.closers = append(s.closers, fn) }
}

// New returns a Store reading from read and writing to write; pass the
// same pool twice when the engine needs no split. The Store owns both pools
// and closes them in Close.
func New(read, write *sql.DB, d Dialect, opts ...Option) *Store {
	s := &Store{read: read, write: write, dialect: d, now: time.Now, attempts: 5,
		stmts: newStmtCache(stmtCacheSize), stats: &counters{}, spacePages: newSpacePages(spacePageBudget),
		revs: newRevisionCache()}
	if d.Engine() == EngineSQLite {
		// pgx keeps each connection's prepared statements itself.
		s.wstmts = newStmtCache(stmtCacheSize)
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Ping checks that both pools answer.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.read.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlstore: ping: %w", err)
	}
	if s.write != s.read {
		if err := s.write.PingContext(ctx); err != nil {
			return fmt.Errorf("sqlstore: ping: %w", err)
		}
	}
	return nil
}

// Close closes the pools. Closing a Store handed to a WithTx function is a
// no-op.
func (s *Store) Close() error {
	if s.tx != nil {
		return nil
	}
	err := s.stmts.close()
	if s.wstmts != nil {
		err = errors.Join(err, s.wstmts.close())
	}
	err = errors.Join(err, s.read.Close())
	if s.write != s.read {
		err = errors.Join(err, s.write.Close())
	}
	for _, fn := range s.closers {
		err = errors.Join(err, fn())
	}
	return err
}

// clock returns the store's current time in UTC at millisecond precision,
// the precision timestamps are stored at.
func (s *Store) clock() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader returns where reads run: the transaction, or the read pool.
func (s *Store) reader() querier {
	if s.tx != nil {
		return s.tx
	}
	return s.read
}

// writer returns where single writes run: the transaction, or the write
// pool.
func (s *Store) writer() querier {
	if s.tx != nil {
		return s.tx
	}
	return s.write
}

// The statements of a Store run through the methods below, each named
// for what the statement does: query and queryRow only read; exec,
// writeRow and queryRowAtomic write. On a transaction, each sends first
// the queued writes the statement may read (see txWrites), and a write
// drops the transaction's read-ahead and sends its open savepoints (see
// spScope); nothing is decided from the statement's text.

// query runs a statement that only reads, returning rows. Outside a
// transaction it runs as a cached prepared statement on the read pool.
func (s *Store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if err := s.sendQueued(ctx); err != nil {
		return nil, err
	}
	q = s.dialect.Rebind(q)
	s.stats.statements.Add(1)
	if s.tx == nil {
		if st, release, err := s.stmts.get(ctx, s.read, q); err == nil {
			defer release()
			return st.QueryContext(ctx, args...)
		}
	} else if st := s.onTx(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.reader().QueryContext(ctx, q, args...)
}

// queryRow runs a statement that only reads, returning at most one row,
// prepared like query. A statement that fails to prepare runs
// unprepared, so its error is reported by Scan.
func (s *Store) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	// A failed send is kept and fails the commit.
	_ = s.sendQueued(ctx)
	return s.rowOf(ctx, q, args...)
}

// writeRow runs a write returning at most one row (RETURNING), on the
// transaction or the write pool. A failed send or savepoint is kept and
// fails the commit.
func (s *Store) writeRow(ctx context.Context, q string, args ...any) *sql.Row {
	if s.sendQueued(ctx) == nil {
		s.forgetAhead()
		if err := s.protect(ctx); err != nil {
			s.txw.err = err
		}
	}
	s.stats.statements.Add(1)
	q = s.dialect.Rebind(q)
	if st := s.onTx(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.writer().QueryRowContext(ctx, q, args...)
}

// queryRowAtomic runs, on a transaction, a write returning one row that
// either applies whole or changes nothing, without sending the open
// savepoints first; the caller calls atomicWrite when it applied.
func (s *Store) queryRowAtomic(ctx context.Context, q string, args ...any) *sql.Row {
	// A failed send is kept and fails the commit.
	_ = s.sendQueued(ctx)
	s.forgetAhead()
	return s.rowOf(ctx, q, args...)
}

// rowOf runs a statement returning at most one row.
func (s *Store) rowOf(ctx context.Context, q string, args ...any) *sql.Row {
	q = s.dialect.Rebind(q)
	s.stats.statements.Add(1)
	if s.tx == nil {
		if st, release, err := s.stmts.get(ctx, s.read, q); err == nil {
			defer release()
			return st.QueryRowContext(ctx, args...)
		}
	} else if st := s.onTx(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.reader().QueryRowContext(ctx, q, args...)
}

// exec runs a write and returns the number of rows it touched. Outside a
// transaction a statement that fails with a busy, serialization or
// deadlock error did not apply, and is run again like a transaction would
// be.
func (s *Store) exec(ctx context.Context, q string, args ...any) (int64, error) {
	if err := s.sendQueued(ctx); err != nil {
		return 0, err
	}
	s.forgetAhead()
	if err := s.protect(ctx); err != nil {
		return 0, err
	}
	q = s.dialect.Rebind(q)
	s.stats.statements.Add(1)
	run := s.writer().ExecContext
	if st := s.onTx(ctx, q); st != nil {
		run = func(ctx context.Context, _ string, args ...any) (sql.Result, error) {
			return st.ExecContext(ctx, args...)
		}
	}
	for attempt := 1; ; attempt++ {
		res, err := run(ctx, q, args...)
		if err == nil {
			return res.RowsAffected()
		}
		if s.tx != nil || attempt >= s.attempts || s.dialect.Classify(err) != FailRetry {
			return 0, err
		}
		if err := backoff(ctx, attempt); err != nil {
			return 0, err
		}
	}
}

// count runs a COUNT query.
func (s *Store) count(ctx context.Context, q string, args ...any) (int, error) {
	var n int
	err := s.queryRow(ctx, q, args...).Scan(&n)
	return n, err
}

// setter collects the assignments of an UPDATE.
type setter struct {
	cols []string
	args []any
}

// add assigns v to col.
func (s *setter) add(col string, v any) {
	s.cols = append(s.cols, col+" = ?")
	s.args = append(s.args, v)
}

// empty reports whether nothing is assigned.
func (s *setter) empty() bool { return len(s.cols) == 0 }

// setIf assigns *v to col when v is not nil.
func setIf[T any](s *setter, col string, v *T) {
	if v != nil {
		s.add(col, *v)
	}
}

// update runs UPDATE table SET … WHERE cond and returns ENOTFOUND, naming
// what, when no row matches. With nothing to set it only checks that the
// row exists.
func (s *Store) update(ctx context.Context, table, cond string, condArgs []any, set setter, what string) error {
	if set.empty() {
		var one int
		err := s.queryRow(ctx, "SELECT 1 FROM "+table+" WHERE "+cond, condArgs...).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return quire.NotFound(what)
		}
		return err
	}
	q := "UPDATE " + table + " SET " + strings.Join(set.cols, ", ") + " WHERE " + cond
	n, err := s.exec(ctx, q, append(set.args[:len(set.args):len(set.args)], condArgs...)...)
	if err != nil {
		return err
	}
	if n == 0 {
		return quire.NotFound(what)
	}
	return nil
}
