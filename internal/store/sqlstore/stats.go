package sqlstore

import "sync/atomic"

// Stats are counters of the work a Store has done since it was opened,
// shared by the transactions it runs. They let tests and operators see
// how many statements an operation costs and how many rows it reads,
// without timing anything.
type Stats struct {
	// Statements counts the statements sent to the database.
	Statements int64
	// Rows counts the rows read by the store's multi-row reads (lists,
	// sibling and batch lookups).
	Rows int64
	// Prepared is how many prepared statements the read pool holds now.
	Prepared int
	// PreparedWrites is how many the write pool holds, on engines whose
	// driver keeps none itself (see Store.onTx); 0 elsewhere.
	PreparedWrites int
}

// counters are the live values behind Stats.
type counters struct {
	statements atomic.Int64
	rows       atomic.Int64
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	st := Stats{
		Statements: s.stats.statements.Load(),
		Rows:       s.stats.rows.Load(),
		Prepared:   s.stmts.len(),
	}
	if s.wstmts != nil {
		st.PreparedWrites = s.wstmts.len()
	}
	return st
}
