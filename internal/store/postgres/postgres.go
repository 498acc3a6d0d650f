// Package postgres opens Quire's store on a PostgreSQL database through
// the pgx driver's database/sql adapter.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

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

// Pool limits. Idle connections are kept up to the open limit, so that a
// burst of requests does not open and close connections, each of which
// prepares its statements again, burst after burst.
const (
	maxOpenConns    = 20
	maxIdleConns    = maxOpenConns
	connMaxIdleTime = 5 * time.Minute
)

// connect opens a pool on the database at url, with the opener among
// opts (see sqlstore.WithPoolOpener), and checks that it answers.
func connect(ctx context.Context, url string, opts ...sqlstore.Option) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse database URL: %w", err)
	}
	db := sqlstore.OpenPool(stdlib.GetConnector(*cfg), sqlstore.EnginePostgres, opts...)
	db.SetMaxOpenConns(maxOpenConns)
	db.SetMaxIdleConns(maxIdleConns)
	db.SetConnMaxIdleTime(connMaxIdleTime)
	if err := db.PingContext(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("postgres: connect: %w", err), db.Close())
	}
	return db, nil
}

// migrate applies pending migrations, the job queue's among them, under a
// session advisory lock, so that servers starting together migrate one at
// a time.
func migrate(ctx context.Context, db *sql.DB) (from, to int64, err error) {
	return migrateTo(ctx, db, math.MaxInt64)
}

// migrateTo applies the pending migrations up to version, under the lock.
func migrateTo(ctx context.Context, db *sql.DB, version int64) (from, to int64, err error) {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return 0, 0, fmt.Errorf("postgres: migration lock: %w", err)
	}
	return sqlstore.MigrateTo(ctx, db, goose.DialectPostgres, Migrations(), version,
		goose.WithSessionLocker(locker), goose.WithGoMigrations(riverMigration()))
}

// riverMigration is the migration that creates the job queue's tables.
func riverMigration() *goose.Migration {
	return sqlstore.RiverMigration(func(db *sql.DB) riverdriver.Driver[*sql.Tx] { return riverdatabasesql.New(db) },
		sqlstore.RiverTxPerStep)
}

// PlanMigrations says which migrations the PostgreSQL database at url
// lacks, without writing to it.
func PlanMigrations(ctx context.Context, url string) (plan *sqlstore.MigrationPlan, err error) {
	db, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	return sqlstore.PlanMigrations(ctx, db, goose.DialectPostgres,
		"SELECT 1 WHERE to_regclass('goose_db_version') IS NOT NULL",
		Migrations(), riverMigration())
}

// Open connects to the PostgreSQL database at url (postgres://…), applies
// pending migrations and returns the store. A database whose schema is
// newer than this binary is refused.
func Open(ctx context.Context, url string, opts ...sqlstore.Option) (*sqlstore.Store, error) {
	db, err := connect(ctx, url, opts...)
	if err != nil {
		return nil, err
	}
	if _, _, err := migrate(ctx, db); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	return sqlstore.New(db, db, Dialect{}, opts...), nil
}

// Migrate applies pending migrations to the PostgreSQL database at url and
// returns the schema version before and after.
func Migrate(ctx context.Context, url string) (from, to int64, err error) {
	return MigrateTo(ctx, url, math.MaxInt64)
}

// MigrateTo is Migrate stopping at version.
func MigrateTo(ctx context.Context, url string, version int64) (from, to int64, err error) {
	db, err := connect(ctx, url)
	if err != nil {
		return 0, 0, err
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	return migrateTo(ctx, db, version)
}

// SQLSTATE codes the store acts on.
const (
	uniqueViolation      = "23505"
	foreignKeyViolation  = "23503"
	serializationFailure = "40001"
	deadlockDetected     = "40P01"
)

// Dialect is the sqlstore.Dialect of PostgreSQL: numbered $n placeholders,
// and errors classified by SQLSTATE.
type Dialect struct{}

// Rebind rewrites ? placeholders as $1, $2, ….
func (Dialect) Rebind(query string) string { return sqlstore.RebindDollar(query) }

// Classify reads the SQLSTATE carried by err.
func (Dialect) Classify(err error) sqlstore.Failure {
	var e *pgconn.PgError
	if !errors.As(err, &e) {
		return sqlstore.FailOther
	}
	switch e.Code {
	case uniqueViolation:
		return sqlstore.FailUnique
	case foreignKeyViolation:
		return sqlstore.FailForeignKey
	case serializationFailure, deadlockDetected:
		return sqlstore.FailRetry
	}
	return sqlstore.FailOther
}

// ChainsWrites reports that one statement may run several writes (a
// data-modifying WITH), which saves round trips.
func (Dialect) ChainsWrites() bool { return true }

// LockStatement takes a transaction-scoped advisory lock whose 64-bit
// number is the FNV-1a hash of key. Two keys sharing a number only wait for
// each other needlessly; every replica computes the same number.
func (Dialect) LockStatement(key string) (string, []any) {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key)) // a hash never fails to write
	return "SELECT pg_advisory_xact_lock(?::bigint)", []any{int64(h.Sum64())}
}

// Engine is PostgreSQL.
func (Dialect) Engine() sqlstore.Engine { return sqlstore.EnginePostgres }
