package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// putOnce stores a one-time row (a sign-in in flight, an account link)
// with insert, after deleting the rows of table that expired by now, in
// one transaction. The table has an expires_at column in milliseconds.
func (s *Store) putOnce(ctx context.Context, table string, now time.Time, insert func(tx *Store) error) error {
	return s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, "DELETE FROM "+table+" WHERE expires_at <= ?", millis(now)); err != nil {
			return err
		}
		return insert(tx)
	})
}

// takeOnce reads a one-time row with read, which scans it and returns
// its expiry in milliseconds, and deletes it with the statement del, in
// one transaction. The row is the caller's only when this deletion
// removed it (of two callers taking it, one) and it had not expired by
// now; otherwise the answer is ENOTFOUND of what.
func (s *Store) takeOnce(ctx context.Context, what string, now time.Time, read func(tx *Store) (int64, error), del string, args ...any) error {
	return s.inTx(ctx, func(tx *Store) error {
		expires, err := read(tx)
		if errors.Is(err, sql.ErrNoRows) {
			return quire.NotFound(what)
		}
		if err != nil {
			return err
		}
		n, err := tx.exec(ctx, del, args...)
		if err != nil {
			return err
		}
		if n == 0 || !fromMillis(expires).After(now) {
			return quire.NotFound(what)
		}
		return nil
	})
}
