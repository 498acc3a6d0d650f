package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCache keeps prepared statements for reads on the read pool, keyed
// by query text, so each query is parsed and planned once per connection
// instead of on every call. The set of query texts is fixed by the code,
// so the cache stays small.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// get returns the prepared form of q (already rebound) on db, preparing it
// on first use.
func (c *stmtCache) get(ctx context.Context, db *sql.DB, q string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[q]; ok {
		return st, nil
	}
	st, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[q] = st
	return st, nil
}

// close releases every prepared statement.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	for q, st := range c.m {
		err = errors.Join(err, st.Close())
		delete(c.m, q)
	}
	return err
}
