package postgres_test

import (
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/store/postgres"
	"quire/internal/store/sqlstore"
	"quire/internal/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.SkipWithoutPostgres(t)
	storetest.Run(t, func(t *testing.T, now func() time.Time) quire.Store {
		// A clone of a migrated database: migrating is tested in
		// internal/store.
		st, err := postgres.Open(t.Context(), storetest.MigratedPostgresDB(t), sqlstore.WithClock(now))
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		t.Cleanup(func() {
			if err := st.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
		return st
	})
}
