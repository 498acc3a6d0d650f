package sqlstore

import "database/sql"

// Engine names a database engine the store runs on.
type Engine int

// Engines.
const (
	EngineSQLite Engine = iota + 1
	EnginePostgres
)

// String returns the engine's name.
func (e Engine) String() string {
	switch e {
	case EngineSQLite:
		return "sqlite"
	case EnginePostgres:
		return "postgres"
	}
	return "unknown"
}

// JobDB returns the pool the background job queue runs its statements on,
// and the engine behind it. It is the write pool: on SQLite its one
// connection, so the queue's writes wait their turn behind the API's
// instead of failing with a busy database. The Store still owns the pool.
func (s *Store) JobDB() (*sql.DB, Engine) { return s.write, s.dialect.Engine() }
