package storetest

import (
	"path/filepath"
	"testing"

	"quire/internal/store/postgres"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
)

// Replicas returns, per engine, a function that makes one migrated
// database for a test and returns an opener of stores on it: each call
// opens a new store with pools of its own, as another replica would, and
// closes it when the test ends. PostgreSQL's is skipped when no server is
// named (see PostgresDB).
func Replicas() map[string]func(t *testing.T) func() *sqlstore.Store {
	return map[string]func(t *testing.T) func() *sqlstore.Store{
		"sqlite": func(t *testing.T) func() *sqlstore.Store {
			path := filepath.Join(t.TempDir(), "quire.db")
			MigratedSQLite(t, path)
			return func() *sqlstore.Store {
				st, err := sqlite.Open(t.Context(), path)
				if err != nil {
					t.Fatalf("open sqlite: %v", err)
				}
				t.Cleanup(func() { _ = st.Close() })
				return st
			}
		},
		"postgres": func(t *testing.T) func() *sqlstore.Store {
			url := MigratedPostgresDB(t)
			return func() *sqlstore.Store {
				st, err := postgres.Open(t.Context(), url)
				if err != nil {
					t.Fatalf("open postgres: %v", err)
				}
				t.Cleanup(func() { _ = st.Close() })
				return st
			}
		},
	}
}
