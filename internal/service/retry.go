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

// inSpaceLock runs op under the space's write lock (quire.Store.LockSpace),
// in one transaction with the other operations of the space queued in
// this process meanwhile (see writeQueues), again from the start whenever
// it loses a compare-and-swap to a writer that does not take the lock. op
// runs on the transaction's Store and with the batch's context, which
// the callers leaving does not cancel. crID is the change request op
// works on, read ahead with the batch's others. moved, when not nil,
// tells from op's result whether it moved the space's current revision:
// the batch then announces the space's content events once, after its
// commit (see writeQueues).
func inSpaceLock[T any](ctx context.Context, s *Service, spaceID, crID string, op func(ctx context.Context, st quire.Store) (T, error), moved func(T) bool) (T, error) {
	var out T
	err := s.spaceQueues.do(ctx, s.store, spaceID, crID, func(ctx context.Context, st quire.Store) (bool, error) {
		var err error
		out, err = op(ctx, st)
		return err == nil && moved != nil && moved(out), err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}
