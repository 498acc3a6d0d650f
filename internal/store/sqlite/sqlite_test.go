package sqlite_test

import (
	"path/filepath"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
	"quire/internal/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) quire.Store {
		// A copy of a migrated database: migrating is tested in
		// internal/store.
		path := filepath.Join(t.TempDir(), "quire.db")
		storetest.MigratedSQLite(t, path)
		st, err := sqlite.Open(t.Context(), path, sqlstore.WithClock(now))
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
