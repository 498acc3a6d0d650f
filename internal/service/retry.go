package service

import (
	"context"

	"quire/internal/quire"
)

// retryConflicts runs op again from the start for as long as it loses a
// compare-and-swap race (quire.IsStale), and returns its first other
// outcome. Operations that read a revision, build on it and then move a
// pointer by compare-and-swap use it, so concurrent writers never
// overwrite each other. There is no bound on the attempts: each lost race
// means another writer committed, so the writers as a whole always make
// progress, and a client that did nothing wrong is never told to try
// again. A cancelled context ends the loop through op's own error.
func retryConflicts[T any](op func() (T, error)) (T, error) {
	for {
		v, err := op()
		if !quire.IsStale(err) {
			return v, err
		}
	}
}

// inSpaceLock runs op in one transaction that holds the space's write lock
// (quire.Store.LockSpace), again from the start whenever it loses a
// compare-and-swap to a writer that does not take the lock. Callers in
// this process queue for the space in memory first, so that at most one of
// them per space holds a database connection while it waits for the lock.
func inSpaceLock[T any](ctx context.Context, s *Service, spaceID string, op func(st quire.Store) (T, error)) (T, error) {
	var zero T
	unlock, err := s.spaceLocks.lock(ctx, spaceID)
	if err != nil {
		return zero, err
	}
	defer unlock()
	return retryConflicts(func() (T, error) {
		var out T
		err := s.store.WithTx(ctx, func(st quire.Store) error {
			if err := st.LockSpace(ctx, spaceID); err != nil {
				return err
			}
			var err error
			out, err = op(st)
			return err
		})
		if err != nil {
			return zero, err
		}
		return out, nil
	})
}
