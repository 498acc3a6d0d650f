package sqlstore

import (
	"context"
	"database/sql"
	"testing"

	_ "modernc.org/sqlite"
)

// plainDialect is an engine with ? placeholders, no lock statement and no
// retries, for tests of the store's own machinery on a bare database.
type plainDialect struct{}

func (plainDialect) Rebind(q string) string               { return q }
func (plainDialect) Classify(error) Failure               { return FailOther }
func (plainDialect) LockStatement(string) (string, []any) { return "", nil }
func (plainDialect) Engine() Engine                       { return EngineSQLite }

// objectsStore returns a store on an in-memory database holding only the
// objects table and a view of it whose name does not say so.
func objectsStore(t *testing.T) *Store {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE TABLE objects (key TEXT PRIMARY KEY, data BLOB NOT NULL, written_at INTEGER NOT NULL)",
		"CREATE VIEW stored AS SELECT key FROM objects",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s := New(db, db, plainDialect{})
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// storedCount counts the rows of the view through st.
func storedCount(t *testing.T, ctx context.Context, st *Store) int {
	t.Helper()
	var n int
	if err := st.queryRow(ctx, "SELECT COUNT(*) FROM stored").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestQueuedWritesSentBeforeAnyStatement checks that a statement of a
// transaction sees the writes queued before it, whatever tables its text
// names, unless it is declared not to read them; and that the commit
// sends what a declared statement left queued.
func TestQueuedWritesSentBeforeAnyStatement(t *testing.T) {
	ctx := context.Background()
	s := objectsStore(t)
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.PutObjects(ctx, map[string][]byte{"a": []byte("one")}); err != nil {
			return err
		}
		if got := storedCount(t, ctx, tx); got != 1 {
			t.Errorf("a read of a view of the objects after a queued object counted %d, want 1", got)
		}
		if err := tx.PutObjects(ctx, map[string][]byte{"b": []byte("two")}); err != nil {
			return err
		}
		if got := storedCount(t, ctx, tx.keeping(queuedObjects)); got != 1 {
			t.Errorf("a read declared not to read objects counted %d, want the 1 sent before", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := storedCount(t, ctx, s); got != 2 {
		t.Errorf("after the commit %d objects stored, want 2", got)
	}
}
