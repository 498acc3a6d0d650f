// Package sqlite opens Quire's store on an SQLite database file through
// the pure-Go modernc.org/sqlite driver, so the server needs no cgo.
//
// Every connection runs with a busy timeout, write-ahead logging, foreign
// keys, synchronous=NORMAL and temporary files in memory, set in the DSN so the pool applies them to
// each new connection. Reads use a pool of read-only connections; writes
// and transactions use a separate pool of exactly one connection, which
// takes the write lock at BEGIN, so writers queue in the process instead of
// failing with SQLITE_BUSY.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"runtime"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"modernc.org/sqlite" // also registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"quire/internal/store/sqlstore"
)

// migrationFiles holds the numbered schema migrations.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations returns the embedded schema migrations.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // the directory is embedded: cannot fail
	}
	return sub
}

// busyTimeoutMS is how long a connection waits for a lock held by another
// connection before failing with SQLITE_BUSY.
const busyTimeoutMS = "5000"

// dsn builds the driver's data source name for the file at path.
func dsn(path string, readOnly bool) (string, error) {
	if strings.ContainsAny(path, "?#") {
		return "", fmt.Errorf("sqlite: database path %q must not contain ? or #", path)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+busyTimeoutMS+")")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Savepoints keep the pages they change in a sub-journal, a temporary
	// file by default: each batched write's first touch of a page was a
	// write to disk. Temporary files live in memory instead.
	q.Add("_pragma", "temp_store(MEMORY)")
	if readOnly {
		q.Add("_pragma", "query_only(ON)")
	} else {
		q.Set("_txlock", "immediate")
		q.Add("_pragma", "wal_autocheckpoint("+writerCheckpointPages+")")
	}
	return path + "?" + q.Encode(), nil
}

// openWriter opens the single-connection write pool, creating the file
// (readable by its owner only) if it does not exist.
func openWriter(ctx context.Context, path string, opts ...sqlstore.Option) (*sql.DB, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	_ = f.Close()
	name, err := dsn(path, false)
	if err != nil {
		return nil, err
	}
	db, err := openPool(name, opts)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return db, nil
}

// Open opens the SQLite database at path, creating it if needed, applies
// pending migrations and returns the store. A database whose schema is
// newer than this binary is refused.
func Open(ctx context.Context, path string, opts ...sqlstore.Option) (*sqlstore.Store, error) {
	write, err := openWriter(ctx, path, opts...)
	if err != nil {
		return nil, err
	}
	if _, _, err := migrate(ctx, write); err != nil {
		_ = write.Close()
		return nil, err
	}
	name, err := dsn(path, true)
	if err != nil {
		_ = write.Close()
		return nil, err
	}
	read, err := openPool(name, opts)
	if err != nil {
		_ = write.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	n := max(4, runtime.NumCPU())
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	if err := read.PingContext(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: open %s: %w", path, err), read.Close(), write.Close())
	}
	cp, err := startCheckpointer(ctx, path)
	if err != nil {
		return nil, errors.Join(err, read.Close(), write.Close())
	}
	opts = append(opts, sqlstore.WithCloser(cp.close))
	return sqlstore.New(read, write, Dialect{}, opts...), nil
}

// openPool opens a pool on the database named by dsn, with the opener
// among opts (see sqlstore.WithPoolOpener).
func openPool(dsn string, opts []sqlstore.Option) (*sql.DB, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sqlstore.OpenPool(c, sqlstore.EngineSQLite, opts...), nil
}

// Migrate applies pending migrations to the SQLite database at path,
// creating it if needed, and returns the schema version before and after.
func Migrate(ctx context.Context, path string) (from, to int64, err error) {
	return MigrateTo(ctx, path, math.MaxInt64)
}

// migrate applies the pending migrations, the job queue's among them, on
// the writer pool.
func migrate(ctx context.Context, write *sql.DB) (from, to int64, err error) {
	return migrateTo(ctx, write, math.MaxInt64)
}

// migrateTo applies the pending migrations up to version.
func migrateTo(ctx context.Context, write *sql.DB, version int64) (from, to int64, err error) {
	return sqlstore.MigrateTo(ctx, write, goose.DialectSQLite3, Migrations(), version, goose.WithGoMigrations(riverMigration()))
}

// MigrateTo is Migrate stopping at version.
func MigrateTo(ctx context.Context, path string, version int64) (from, to int64, err error) {
	write, err := openWriter(ctx, path)
	if err != nil {
		return 0, 0, err
	}
	defer func() { err = errors.Join(err, write.Close()) }()
	return migrateTo(ctx, write, version)
}

// riverMigration is the migration that creates the job queue's tables.
func riverMigration() *goose.Migration {
	return sqlstore.RiverMigration(func(db *sql.DB) riverdriver.Driver[*sql.Tx] { return riversqlite.New(db) },
		sqlstore.RiverInGooseTx)
}

// PlanMigrations says which migrations the SQLite database at path lacks,
// without writing to it; a file that does not exist lacks them all and is
// not created.
func PlanMigrations(ctx context.Context, path string) (plan *sqlstore.MigrationPlan, err error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		path = ":memory:"
	}
	name, err := dsn(path, true)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	return sqlstore.PlanMigrations(ctx, db, goose.DialectSQLite3,
		"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'goose_db_version'",
		Migrations(), riverMigration())
}

// Dialect is the sqlstore.Dialect of SQLite: ? placeholders as written,
// and errors classified by the driver's extended result codes.
type Dialect struct{}

// Rebind returns the query unchanged: SQLite takes ? placeholders.
func (Dialect) Rebind(query string) string { return query }

// Classify reads the SQLite result code carried by err.
func (Dialect) Classify(err error) sqlstore.Failure {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return sqlstore.FailOther
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return sqlstore.FailUnique
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return sqlstore.FailForeignKey
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return sqlstore.FailRetry
	}
	return sqlstore.FailOther
}

// LockStatement returns no statement: every transaction runs on the one
// writer connection and takes SQLite's write lock at BEGIN, so a
// transaction already holds every lock there is.
func (Dialect) LockStatement(string) (string, []any) { return "", nil }

// Engine is SQLite.
func (Dialect) Engine() sqlstore.Engine { return sqlstore.EngineSQLite }
