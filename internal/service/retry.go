package service

import "quire/internal/quire"

// conflictAttempts bounds how often an operation that lost a
// compare-and-swap race is run again from the start.
const conflictAttempts = 5

// retryConflicts runs op until it succeeds, fails with anything but
// ECONFLICT, or has lost conflictAttempts races in a row. Operations that
// read a revision, build on it and then move a pointer by
// compare-and-swap use it, so concurrent writers never overwrite each
// other.
func retryConflicts[T any](op func() (T, error)) (T, error) {
	for attempt := 1; ; attempt++ {
		v, err := op()
		if quire.ErrorCode(err) != quire.ECONFLICT || attempt == conflictAttempts {
			return v, err
		}
	}
}
