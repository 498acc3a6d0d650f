package sqlstore

import (
	"container/list"
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCacheSize bounds how many prepared statements the read pool keeps.
// The query texts are fixed by the code, with IN lists padded to a few
// sizes (see inList), so a few hundred covers every read; the bound only
// guards against a query text built from input.
const stmtCacheSize = 256

// stmtCache keeps prepared statements for reads on the read pool, keyed
// by query text, so each query is parsed and planned once per connection
// instead of on every call. It holds at most limit statements and evicts
// the least recently used one beyond that; an evicted statement is closed
// once the last caller using it has released it.
type stmtCache struct {
	mu    sync.Mutex
	limit int
	m     map[string]*list.Element // of *cachedStmt
	lru   list.List                // most recently used first
}

// cachedStmt is one prepared statement with the number of callers that
// hold it.
type cachedStmt struct {
	q       string
	st      *sql.Stmt
	refs    int
	evicted bool
}

// newStmtCache returns a cache holding up to limit statements.
func newStmtCache(limit int) *stmtCache {
	return &stmtCache{limit: max(limit, 1), m: map[string]*list.Element{}}
}

// lookup returns the prepared form of q when the cache holds it, without
// preparing it. The caller must not hold it past a use that database/sql
// tracks on its own (a transaction's statement made from it).
func (c *stmtCache) lookup(q string) (*sql.Stmt, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[q]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cachedStmt).st, true
}

// get returns the prepared form of q (already rebound) on db, preparing it
// on first use, and a release function the caller calls once it no longer
// runs the statement (rows it returned stay valid after release).
func (c *stmtCache) get(ctx context.Context, db *sql.DB, q string) (*sql.Stmt, func(), error) {
	c.mu.Lock()
	if el, ok := c.m[q]; ok {
		cs := el.Value.(*cachedStmt)
		cs.refs++
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return cs.st, func() { c.release(cs) }, nil
	}
	c.mu.Unlock()

	st, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[q]; ok {
		// Another caller prepared it meanwhile: use theirs.
		_ = st.Close()
		cs := el.Value.(*cachedStmt)
		cs.refs++
		c.lru.MoveToFront(el)
		return cs.st, func() { c.release(cs) }, nil
	}
	cs := &cachedStmt{q: q, st: st, refs: 1}
	c.m[q] = c.lru.PushFront(cs)
	for c.lru.Len() > c.limit {
		c.evict(c.lru.Back())
	}
	return st, func() { c.release(cs) }, nil
}

// evict drops an entry, closing its statement now if no caller holds it.
// The caller holds mu.
func (c *stmtCache) evict(el *list.Element) {
	cs := c.lru.Remove(el).(*cachedStmt)
	delete(c.m, cs.q)
	cs.evicted = true
	if cs.refs == 0 {
		_ = cs.st.Close()
	}
}

// release ends one caller's use of a statement, closing it if it was
// evicted meanwhile and this was the last use.
func (c *stmtCache) release(cs *cachedStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs.refs--
	if cs.evicted && cs.refs == 0 {
		_ = cs.st.Close()
	}
}

// len returns how many statements the cache holds.
func (c *stmtCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// close releases every prepared statement.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	for q, el := range c.m {
		cs := c.lru.Remove(el).(*cachedStmt)
		delete(c.m, q)
		cs.evicted = true
		if cs.refs == 0 {
			err = errors.Join(err, cs.st.Close())
		}
	}
	return err
}
