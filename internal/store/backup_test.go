package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/store"
	"quire/internal/store/dump"
	"quire/internal/store/dump/dumptest"
	"quire/internal/store/sqlite"
)

// oldVersion is the schema version of the archive TestRestoreOlderSchema
// restores: the one before the migration that records a content event
// for every space holding content.
const oldVersion = 8

// TestRestoreOlderSchema restores an archive taken at an older schema
// version into both engines: the rows load at that version as they were
// (the triggers' counters included), then the newer migrations run on
// them.
func TestRestoreOlderSchema(t *testing.T) {
	ctx := t.Context()
	src := filepath.Join(t.TempDir(), "src")
	if err := os.MkdirAll(src, 0o700); err != nil {
		t.Fatal(err)
	}
	db, _, err := sqlite.OpenRestoreTarget(ctx, filepath.Join(src, store.SQLiteFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, to, err := sqlite.MigrateRestoreTarget(ctx, db, oldVersion); err != nil || to != oldVersion {
		t.Fatalf("migrate to %d: %d, %v", oldVersion, to, err)
	}
	for _, q := range []string{
		"INSERT INTO organizations (id, title, created_at) VALUES ('o1', 'Org', 1)",
		"INSERT INTO spaces (id, org_id, title, revision, created_at, updated_at) VALUES ('s1', 'o1', 'Space', 'r1', 2, 3)",
		// A count the triggers would not come to on their own.
		"UPDATE space_versions SET n = 41",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	file := filepath.Join(t.TempDir(), "old.tar.gz")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.Backup(ctx, store.Config{DataDir: src}, nil, f)
	if err = errors.Join(err, f.Close()); err != nil {
		t.Fatal(err)
	}
	if m.SchemaVersion != oldVersion || m.Rows() != 3 {
		t.Fatalf("manifest: version %d, %d rows", m.SchemaVersion, m.Rows())
	}
	a, err := dump.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, config := range engines() {
		t.Run(name, func(t *testing.T) {
			cfg := config(t)
			res, err := store.Restore(ctx, cfg, a, nil, strings.ToLower)
			if err != nil {
				t.Fatal(err)
			}
			if res.From != oldVersion || res.To <= oldVersion {
				t.Errorf("restored from %d to %d", res.From, res.To)
			}
			db := openDB(t, cfg)
			for query, want := range map[string]string{
				"SELECT title || ' ' || revision FROM spaces":                 "Space r1",
				"SELECT CAST(sum(n) AS TEXT) FROM space_versions":             "41",
				"SELECT space_id || ' ' || next_revision FROM content_events": "s1 r1",
				"SELECT CAST(max(version_id) AS TEXT) FROM goose_db_version":  fmt.Sprint(res.To),
			} {
				var got string
				if err := db.QueryRowContext(ctx, query).Scan(&got); err != nil {
					t.Fatalf("%s: %v", query, err)
				}
				if got != want {
					t.Errorf("%s = %q; want %q", query, got, want)
				}
			}
			// A second restore finds the target full.
			var ne *dump.NotEmptyError
			if _, err := store.Restore(ctx, cfg, a, nil, strings.ToLower); !errors.As(err, &ne) {
				t.Errorf("restore into the restored database = %v; want a NotEmptyError", err)
			}
		})
	}

	// An archive of a schema newer than the binary is refused.
	newer := rewriteManifest(t, file, func(m *dump.Manifest) { m.SchemaVersion = 9999 })
	a, err = dump.Open(newer)
	if err != nil {
		t.Fatal(err)
	}
	cfg := store.Config{DataDir: filepath.Join(t.TempDir(), "newer")}
	if _, err := store.Restore(ctx, cfg, a, nil, strings.ToLower); quire.ErrorCode(err) != quire.EPRECONDITION ||
		!strings.Contains(err.Error(), "newer than this binary") {
		t.Errorf("restore of schema 9999 = %v", err)
	}
}

// openDB opens the database of cfg to read it.
func openDB(t *testing.T, cfg store.Config) *sql.DB {
	t.Helper()
	driver, name := "pgx", cfg.DatabaseURL
	if name == "" {
		driver, name = "sqlite", filepath.Join(cfg.DataDir, store.SQLiteFile)
	}
	db, err := sql.Open(driver, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// rewriteManifest writes a copy of the archive at path with its manifest
// changed by edit, and returns the copy's path.
func rewriteManifest(t *testing.T, path string, edit func(*dump.Manifest)) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "edited.tar.gz")
	if err := os.WriteFile(copyPath, dumptest.Rewrite(t, raw, nil, edit), 0o600); err != nil {
		t.Fatal(err)
	}
	return copyPath
}
