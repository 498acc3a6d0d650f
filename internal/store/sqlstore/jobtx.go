package sqlstore

import (
	"context"
	"database/sql"
	"errors"
)

// JobTx lends the job queue the transaction this Store runs in, so that a
// job is inserted with the writes that call for it: both commit, or
// neither does. The open savepoints are sent to the database first, so
// that one rolling back takes the job with it. Outside a transaction it
// fails.
func (s *Store) JobTx(ctx context.Context) (*sql.Tx, error) {
	if s.tx == nil {
		return nil, errors.New("sqlstore: a job is queued with the store's writes only inside WithTx")
	}
	if err := s.protect(ctx); err != nil {
		return nil, err
	}
	return s.tx, nil
}
