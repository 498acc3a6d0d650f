package storetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"quire/internal/store/postgres"
	"quire/internal/store/sqlite"
)

// Migrating a database takes far longer than copying a migrated one, and
// most tests need a migrated database, not the act of migrating. So the
// tests copy a template: for PostgreSQL a template database on the test
// server (CREATE DATABASE … TEMPLATE), for SQLite a migrated file in the
// temporary directory. A template is named after a digest of the
// migrations it holds (see schemaDigest), so that a template is never used
// for another schema, and test runs of different schemas share a server
// safely. Templates are kept from run to run; the tests of migrating
// itself use empty databases (PostgresDB, a new SQLite file).

// templatePrefix starts the names of the template databases and files.
const templatePrefix = "quire_tpl_"

// templateLockKey is the PostgreSQL advisory lock key under which
// template databases are created, so that test processes starting together
// create each template once.
const templateLockKey = 0x71756972 // "quir"

// schemaDigest returns a short digest of what makes the schema of the
// engine: its migration files, and the job queue's version (River's own
// migrations run within ours).
func schemaDigest(engine string, migrations fs.FS) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", engine)
	err := fs.WalkDir(migrations, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(migrations, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("digest migrations: %w", err)
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "github.com/riverqueue/river" {
				fmt.Fprintf(h, "river %s\n", m.Version)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// MigratedPostgresDB is PostgresDB with the current schema in place: the
// database is cloned from a template database holding every migration,
// made on first use. The database is dropped when the test ends; the test
// is skipped when PostgresEnv is not set.
func MigratedPostgresDB(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(PostgresEnv)
	if admin == "" {
		t.Skipf("%s is not set: skipping the PostgreSQL tests", PostgresEnv)
	}
	cfg, err := pgx.ParseConfig(admin)
	if err != nil {
		t.Fatalf("parse %s: %v", PostgresEnv, err)
	}
	db := stdlib.OpenDB(*cfg)
	tpl, err := postgresTemplate(context.Background(), db, admin)
	if err != nil {
		_ = db.Close()
		t.Fatalf("template database: %v", err)
	}
	name := "quire_t_" + randomHex()
	if _, err := db.ExecContext(context.Background(), "CREATE DATABASE "+name+" TEMPLATE "+tpl); err != nil {
		_ = db.Close()
		t.Fatalf("create database from %s: %v", tpl, err)
	}
	t.Cleanup(func() { dropDatabase(t, db, name) })
	return databaseURL(t, admin, name)
}

// postgresTemplate returns the name of the template database of the
// current schema, creating it if the server has none yet: migrated under
// a temporary name, closed to connections, then renamed, so that no one
// clones it half made.
func postgresTemplate(ctx context.Context, db *sql.DB, admin string) (string, error) {
	digest, err := schemaDigest("postgres", postgres.Migrations())
	if err != nil {
		return "", err
	}
	name := templatePrefix + digest
	if ok, err := templateExists(ctx, db, name); err != nil || ok {
		return name, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", templateLockKey)
	}()
	if ok, err := templateExists(ctx, conn, name); err != nil || ok {
		return name, err
	}
	tmp := name + "_" + randomHex()
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+tmp); err != nil {
		return "", err
	}
	u, err := url.Parse(admin)
	if err != nil {
		return "", err
	}
	u.Path = "/" + tmp
	if _, _, err := postgres.Migrate(ctx, u.String()); err != nil {
		_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+tmp+" WITH (FORCE)")
		return "", err
	}
	for _, q := range []string{
		"ALTER DATABASE " + tmp + " WITH IS_TEMPLATE true ALLOW_CONNECTIONS false",
		"ALTER DATABASE " + tmp + " RENAME TO " + name,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			_, _ = conn.ExecContext(ctx, "ALTER DATABASE "+tmp+" WITH IS_TEMPLATE false")
			_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+tmp+" WITH (FORCE)")
			return "", err
		}
	}
	return name, nil
}

// querier is a pool or a connection.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// templateExists reports whether the template database name exists.
func templateExists(ctx context.Context, q querier, name string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1 AND datistemplate", name).Scan(&n)
	return n > 0, err
}

// MigratedSQLite writes an SQLite database with the current schema in
// place to path (which must not exist), copied from a migrated template
// file in the temporary directory, made on first use.
func MigratedSQLite(t testing.TB, path string) {
	t.Helper()
	tpl, err := sqliteTemplate(context.Background())
	if err != nil {
		t.Fatalf("template sqlite database: %v", err)
	}
	if err := copyFile(tpl, path); err != nil {
		t.Fatalf("copy the template sqlite database: %v", err)
	}
}

// MigratedSQLiteDir returns a new temporary directory holding file, an
// SQLite database with the current schema in place (see MigratedSQLite).
func MigratedSQLiteDir(t testing.TB, file string) string {
	t.Helper()
	dir := t.TempDir()
	MigratedSQLite(t, filepath.Join(dir, file))
	return dir
}

// sqliteTemplate returns the path of the migrated template SQLite file of
// the current schema, making it if missing: migrated under a temporary
// name, then renamed into place, so that no one copies it half made.
func sqliteTemplate(ctx context.Context) (string, error) {
	digest, err := schemaDigest("sqlite", sqlite.Migrations())
	if err != nil {
		return "", err
	}
	path := filepath.Join(os.TempDir(), templatePrefix+digest+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	dir, err := os.MkdirTemp("", templatePrefix)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "quire.db")
	if _, _, err := sqlite.Migrate(ctx, tmp); err != nil {
		return "", err
	}
	// Closing the last connection checkpoints the write-ahead log into
	// the file and removes it: the file alone is the database.
	if fi, err := os.Stat(tmp + "-wal"); err == nil && fi.Size() > 0 {
		return "", fmt.Errorf("migrated database %s left a write-ahead log", tmp)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
}

// copyFile copies the file src to the new file dst, readable by its owner
// only, as the store creates its database.
func copyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	_, err = io.Copy(out, in)
	return err
}

// randomHex returns 16 random hex digits for a unique name.
func randomHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// databaseURL returns the URL admin with the database name.
func databaseURL(t testing.TB, admin, name string) string {
	t.Helper()
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("parse %s: %v", PostgresEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}
