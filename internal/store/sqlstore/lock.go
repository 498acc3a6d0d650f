package sqlstore

import (
	"context"
	"errors"
)

// LockSpace takes the space's write lock for the rest of the transaction,
// through the dialect's lock statement. It needs a transaction: a lock
// taken outside one would be let go at once.
func (s *Store) LockSpace(ctx context.Context, spaceID string) error {
	if s.tx == nil {
		return errors.New("sqlstore: lock space: not in a transaction")
	}
	q, args := s.dialect.LockStatement("space:" + spaceID)
	if q == "" {
		return nil
	}
	_, err := s.exec(ctx, q, args...)
	return wrap("lock space", err)
}

// SerialWrites reports whether the engine runs one write transaction at a
// time: those whose dialect needs no lock statement, since holding any
// write transaction there is holding every lock.
func (s *Store) SerialWrites() bool {
	q, _ := s.dialect.LockStatement("")
	return q == ""
}
