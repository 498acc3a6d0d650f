package sqlite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
	"quire/internal/store/storetest"
)

// TestTransactionStatementsPrepared runs the same write transaction
// again and again: the statements of the first run are prepared on the
// write pool once it ends, and later runs reuse them instead of adding
// more.
func TestTransactionStatementsPrepared(t *testing.T) {
	ctx := t.Context()
	st, _ := openMigrated(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	org := &quire.Organization{ID: quire.NewID(), Title: "Org", CreatedAt: now, Type: "business",
		DefaultRole: quire.RoleRead, Plan: "free", MergeRules: quire.MergeRules{Type: "none"}}
	if err := st.CreateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	create := func(i int) {
		t.Helper()
		err := st.WithTx(ctx, func(tx quire.Store) error {
			last, err := tx.LastPosition(ctx, org.ID, "")
			if err != nil {
				return err
			}
			return tx.CreateSpace(ctx, &quire.Space{ID: quire.NewID(), OrgID: org.ID, Title: fmt.Sprint("Space ", i),
				Visibility: quire.VisibilityPrivate, EditMode: quire.EditModeLive, DefaultLevel: quire.DefaultInherit,
				MergeRules: quire.MergeRules{Type: quire.MergeRulesInherit}, Revision: quire.NewID(),
				Position: quire.KeyBetween(last, ""), CreatedAt: now, UpdatedAt: now})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	create(0)
	first := st.Stats().PreparedWrites
	if first == 0 {
		t.Fatal("no statement prepared on the write pool after a transaction")
	}
	for i := 1; i < 20; i++ {
		create(i)
	}
	if got := st.Stats().PreparedWrites; got != first {
		t.Errorf("%d statements prepared after 20 runs of one transaction, want the first run's %d", got, first)
	}
	l, err := st.Spaces(ctx, quire.SpaceFilter{OrgID: org.ID}, quire.Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 20 {
		t.Errorf("%d spaces stored, want 20", len(l.Items))
	}
}

// TestCheckpointOffTheWriter writes to a fresh database and waits for the
// pages to reach the database file: the checkpointer copies them from the
// write-ahead log in the background, long before the writer's own
// automatic checkpoint would.
func TestCheckpointOffTheWriter(t *testing.T) {
	ctx := t.Context()
	st, path := openMigrated(t)
	before := fileSize(t, path)
	now := time.Now().UTC().Truncate(time.Millisecond)
	for i := range 200 {
		o := &quire.Organization{ID: quire.NewID(), Title: fmt.Sprint("Org ", i), CreatedAt: now, Type: "business",
			DefaultRole: quire.RoleRead, Plan: "free", MergeRules: quire.MergeRules{Type: "none"}}
		if err := st.CreateOrganization(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	// A bound on the wait, so that a broken checkpointer fails the test
	// rather than hanging it; the checkpointer runs every 200 ms.
	giveUp := time.Now().Add(30 * time.Second)
	for fileSize(t, path) == before {
		if time.Now().After(giveUp) {
			t.Fatal("the database file never grew: nothing checkpointed the write-ahead log")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fileSize returns the size of the file at path.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// openMigrated opens a copy of a migrated database, closed when the test
// ends, and returns it with its path.
func openMigrated(t *testing.T) (*sqlstore.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "quire.db")
	storetest.MigratedSQLite(t, path)
	st, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st, path
}
