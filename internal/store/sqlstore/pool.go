package sqlstore

import (
	"database/sql"
	"database/sql/driver"
)

// PoolOpener opens a connection pool on an engine's connector: sql.OpenDB,
// or a wrapper that observes every statement the pool runs (tracing).
type PoolOpener func(c driver.Connector, e Engine) *sql.DB

// WithPoolOpener makes the engine open the store's pools with open
// instead of sql.OpenDB. It acts when the engine opens the store, before
// the Store exists (see OpenPool).
func WithPoolOpener(open PoolOpener) Option { return func(s *Store) { s.openPool = open } }

// OpenPool opens a pool on c for engine e with the opener among opts
// (WithPoolOpener), or with sql.OpenDB when there is none. Engines call it
// for each pool of the store they open.
func OpenPool(c driver.Connector, e Engine, opts ...Option) *sql.DB {
	var probe Store
	for _, o := range opts {
		o(&probe)
	}
	if probe.openPool != nil {
		return probe.openPool(c, e)
	}
	return sql.OpenDB(c)
}
