package sqlstore

import (
	"context"
	"database/sql"
	"sync"
)

// txStatements are the query texts a transaction ran as text because the
// write pool had no prepared form of them yet; they are prepared once the
// transaction ends (see Store.prepareLearned).
type txStatements struct {
	mu      sync.Mutex
	learned []string
}

// note records that q ran as text.
func (t *txStatements) note(q string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.learned = append(t.learned, q)
}

// take returns what was noted and forgets it.
func (t *txStatements) take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.learned
	t.learned = nil
	return l
}

// onTx returns q's prepared form bound to the transaction, or nil when q
// is to run as text. On an engine whose driver does not keep prepared
// statements itself (SQLite), the write pool keeps them like the read
// pool does, so the statements of a transaction are parsed once per
// connection instead of on every call. A statement cannot be prepared on
// the write pool while the transaction holds its only connection: one not
// cached yet runs as text and is prepared after the transaction ends.
func (s *Store) onTx(ctx context.Context, q string) *sql.Stmt {
	if s.wstmts == nil || s.tx == nil {
		return nil
	}
	st, ok := s.wstmts.lookup(q)
	if !ok {
		s.txs.note(q)
		return nil
	}
	// The transaction's statement depends on st: database/sql closes st's
	// driver statement only once the transaction's is closed, even if the
	// cache evicts st meanwhile.
	return s.tx.StmtContext(ctx, st)
}

// prepareLearned prepares, on the write pool, the statements a finished
// transaction ran as text, for later transactions to find in the cache.
// A statement that fails to prepare is left out: it failed in the
// transaction too, or will run as text again.
func (s *Store) prepareLearned(ctx context.Context, t *txStatements) {
	if s.wstmts == nil || t == nil {
		return
	}
	for _, q := range t.take() {
		if _, ok := s.wstmts.lookup(q); ok {
			continue
		}
		if _, release, err := s.wstmts.get(ctx, s.write, q); err == nil {
			release()
		}
	}
}
