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
		st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "quire.db"), sqlstore.WithClock(now))
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
