package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"quire/internal/quire"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
)

// transient is an error the flaky dialect classifies as retryable.
type transient struct{}

func (transient) Error() string { return "transient" }

// flaky is SQLite's dialect, also retrying transient errors.
type flaky struct{ sqlite.Dialect }

func (d flaky) Classify(err error) sqlstore.Failure {
	if errors.As(err, new(transient)) {
		return sqlstore.FailRetry
	}
	return d.Dialect.Classify(err)
}

// migrated returns the path of a migrated database file.
func migrated(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "quire.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// rawPool opens a pool on path with the given DSN parameters.
func rawPool(t *testing.T, path, params string) *sql.DB {
	db, err := sql.Open("sqlite", path+"?"+params)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func TestWithTxRetriesTransientFailures(t *testing.T) {
	path := migrated(t)
	db := rawPool(t, path, "_pragma=foreign_keys(ON)")
	db.SetMaxOpenConns(1)
	st := sqlstore.New(db, db, flaky{}, sqlstore.WithAttempts(4))
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		failures int
		fail     error
		want     int
		wantErr  bool
	}{
		{"succeeds after two failures", 2, transient{}, 3, false},
		{"gives up after the attempts", 10, transient{}, 4, true},
		{"domain errors are not retried", 10, quire.Errorf(quire.ECONFLICT, "taken"), 1, true},
	} {
		attempts := 0
		err := st.WithTx(ctx, func(tx quire.Store) error {
			attempts++
			u := &quire.User{ID: quire.NewID(), DisplayName: "U", Email: quire.NewID() + "@x.io"}
			if err := tx.CreateUser(ctx, u); err != nil {
				return err
			}
			if attempts <= c.failures {
				return c.fail
			}
			return nil
		})
		if attempts != c.want || (err != nil) != c.wantErr {
			t.Fatalf("%s: %d attempts, error %v", c.name, attempts, err)
		}
	}
	n, err := st.CountUsers(ctx)
	if err != nil || n != 1 {
		t.Fatalf("users: %d, %v; want only the committed attempt's", n, err)
	}
}

func TestBusyIsRetryable(t *testing.T) {
	path := migrated(t)
	ctx := context.Background()
	holder := rawPool(t, path, "_pragma=busy_timeout(1)&_txlock=immediate")
	tx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	other := rawPool(t, path, "_pragma=busy_timeout(1)&_txlock=immediate")
	_, err = other.BeginTx(ctx, nil)
	if err == nil {
		t.Fatal("second writer got the lock")
	}
	if got := (sqlite.Dialect{}).Classify(err); got != sqlstore.FailRetry {
		t.Fatalf("classified %v as %v, want FailRetry", err, got)
	}
}
