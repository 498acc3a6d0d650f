package telemetry_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/store/postgres"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
	"quire/internal/store/storetest"
	"quire/internal/telemetry"
)

// TestTracedStore runs the store's conformance suite on pools opened for
// tracing, on both engines: the wrapped driver must leave every result,
// error code, savepoint and lock as the driver gives them.
func TestTracedStore(t *testing.T) {
	tr, err := telemetry.NewTracing(t.Context(), telemetry.Config{Getenv: func(k string) string {
		// Nothing is traced here (no statement runs under a span), so
		// nothing is sent to this address, which nobody listens on.
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Shutdown(t.Context()) })
	traced := sqlstore.WithPoolOpener(tr.OpenPool())
	t.Run("sqlite", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T, now func() time.Time) quire.Store {
			path := filepath.Join(t.TempDir(), "quire.db")
			storetest.MigratedSQLite(t, path)
			st, err := sqlite.Open(t.Context(), path, sqlstore.WithClock(now), traced)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			t.Cleanup(func() { _ = st.Close() })
			checkTraced(t, st)
			return st
		})
	})
	t.Run("postgres", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T, now func() time.Time) quire.Store {
			st, err := postgres.Open(t.Context(), storetest.MigratedPostgresDB(t), sqlstore.WithClock(now), traced)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			t.Cleanup(func() { _ = st.Close() })
			checkTraced(t, st)
			return st
		})
	})
}

// checkTraced fails the test unless st's pools run on otelsql's driver.
func checkTraced(t *testing.T, st *sqlstore.Store) {
	t.Helper()
	db, _ := st.JobDB()
	if d := fmt.Sprintf("%T", db.Driver()); !strings.Contains(d, "otelsql") {
		t.Fatalf("the store's pool runs on %s, not otelsql's driver", d)
	}
}
