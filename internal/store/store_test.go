package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"quire/internal/quire"
	"quire/internal/store"
	"quire/internal/store/storetest"
)

// engines returns the configurations to test: a fresh SQLite data
// directory (which does not exist yet), and a fresh PostgreSQL database
// when one is available.
func engines() map[string]func(t *testing.T) store.Config {
	return map[string]func(t *testing.T) store.Config{
		"sqlite": func(t *testing.T) store.Config {
			return store.Config{DataDir: filepath.Join(t.TempDir(), "data")}
		},
		"postgres": func(t *testing.T) store.Config {
			return store.Config{DatabaseURL: storetest.PostgresDB(t)}
		},
	}
}

// rawDB opens the database behind c directly, for tampering with it.
func rawDB(t *testing.T, c store.Config) *sql.DB {
	t.Helper()
	var db *sql.DB
	if c.DatabaseURL == "" {
		var err error
		db, err = sql.Open("sqlite", filepath.Join(c.DataDir, store.SQLiteFile))
		if err != nil {
			t.Fatal(err)
		}
	} else {
		cfg, err := pgx.ParseConfig(c.DatabaseURL)
		if err != nil {
			t.Fatal(err)
		}
		db = stdlib.OpenDB(*cfg)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func TestMigrateAndOpen(t *testing.T) {
	for name, config := range engines() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := config(t)
			from, to, err := store.Migrate(ctx, c)
			if err != nil {
				t.Fatalf("migrate: %v", err)
			}
			if from != 0 || to < 1 {
				t.Fatalf("migrate a fresh database: %d → %d, want 0 → at least 1", from, to)
			}
			again, same, err := store.Migrate(ctx, c)
			if err != nil || again != to || same != to {
				t.Fatalf("migrate again: %d → %d, %v; want %d → %d", again, same, err, to, to)
			}
			st, err := store.Open(ctx, c)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			if err := st.Ping(ctx); err != nil {
				t.Fatalf("ping: %v", err)
			}
			if n, err := st.CountUsers(ctx); err != nil || n != 0 {
				t.Fatalf("count users: %d, %v", n, err)
			}
			if err := st.Close(); err != nil {
				t.Fatalf("close: %v", err)
			}
			if c.DataDir != "" {
				fi, err := os.Stat(c.DataDir)
				if err != nil || fi.Mode().Perm() != 0o700 {
					t.Fatalf("data directory: %v, %v; want mode 0700", fi.Mode(), err)
				}
			}

			// A version from a newer binary is refused, and nothing runs.
			newer := to + 98
			if _, err := rawDB(t, c).ExecContext(ctx,
				"INSERT INTO goose_db_version (version_id, is_applied) VALUES ("+itoa(newer)+", TRUE)"); err != nil {
				t.Fatalf("record a newer version: %v", err)
			}
			want := "database schema version " + itoa(newer) + " is newer than this binary (" + itoa(to) + ")"
			st, err = store.Open(ctx, c)
			if err == nil {
				_ = st.Close()
				t.Fatal("open succeeded on a newer schema")
			}
			if st != nil {
				t.Fatalf("open returned a store (%T) with its error", st)
			}
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("open: %v; want %q", err, want)
			}
			if _, _, err := store.Migrate(ctx, c); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("migrate: %v; want %q", err, want)
			}
		})
	}
}

// TestOpenWithClock checks that a store opened with a clock stamps its
// writes with it: objects written at a time long past are older than a
// mark a year after it, and a collection from that mark takes them.
func TestOpenWithClock(t *testing.T) {
	for name, config := range engines() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
			c := config(t)
			c.Now = func() time.Time { return past }
			st, err := store.Open(ctx, c)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			t.Cleanup(func() { _ = st.Close() })
			if err := st.PutObjects(ctx, map[string][]byte{"k": []byte("v")}); err != nil {
				t.Fatalf("put: %v", err)
			}
			n, err := st.SweepObjects(ctx, past.AddDate(1, 0, 0), func(string) bool { return false })
			if err != nil || n != 1 {
				t.Fatalf("sweep of what was written before a year after the clock: %d, %v; want 1", n, err)
			}
		})
	}
}

func TestOpenRejectsUnknownScheme(t *testing.T) {
	for _, u := range []string{"mysql://root@localhost/quire", "sqlite:///tmp/x.db"} {
		_, err := store.Open(context.Background(), store.Config{DatabaseURL: u})
		if quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("%s: got %v, want EINVALID", u, err)
		}
		scheme, _, _ := strings.Cut(u, ":")
		if !strings.Contains(err.Error(), scheme) {
			t.Fatalf("%s: %q does not name the scheme", u, err)
		}
		if _, _, err := store.Migrate(context.Background(), store.Config{DatabaseURL: u}); quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("migrate %s: got %v, want EINVALID", u, err)
		}
	}
	_, err := store.Open(context.Background(), store.Config{})
	if quire.ErrorCode(err) != quire.EINVALID {
		t.Fatalf("no data directory: got %v, want EINVALID", err)
	}
}

// itoa formats a version.
func itoa(v int64) string { return strconv.FormatInt(v, 10) }
