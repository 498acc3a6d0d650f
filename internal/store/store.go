// Package store opens the database a Quire server runs on: SQLite in the
// data directory by default, PostgreSQL when given a postgres:// URL.
package store

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"quire/internal/quire"
	"quire/internal/store/postgres"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
)

// Config says which database to open.
type Config struct {
	// DatabaseURL is empty for SQLite in DataDir, or a postgres:// URL.
	DatabaseURL string
	// DataDir holds the SQLite file.
	DataDir string
	// Now is the clock the store stamps its writes with (updated-at
	// times, objects' written times); nil is time.Now.
	Now func() time.Time
	// OpenPool opens the store's connection pools; nil is sql.OpenDB.
	// Tracing passes one that observes every statement.
	OpenPool sqlstore.PoolOpener
}

// SQLiteFile is the name of the SQLite database file inside DataDir.
const SQLiteFile = "quire.db"

// engine is where a Config points.
type engine int

// Engines.
const (
	engineSQLite engine = iota
	enginePostgres
)

// target resolves c to an engine and what that engine opens: the SQLite
// file path (creating the data directory, owner-only, if missing) or the
// PostgreSQL URL.
func (c Config) target() (engine, string, error) {
	kind, target, err := c.resolve()
	if err == nil && kind == engineSQLite {
		if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
			return 0, "", fmt.Errorf("store: create data directory: %w", err)
		}
	}
	return kind, target, err
}

// resolve is target without creating anything.
func (c Config) resolve() (engine, string, error) {
	if c.DatabaseURL == "" {
		if c.DataDir == "" {
			return 0, "", quire.Invalid("dataDir", "is required for the SQLite database")
		}
		return engineSQLite, filepath.Join(c.DataDir, SQLiteFile), nil
	}
	u, err := url.Parse(c.DatabaseURL)
	if err != nil {
		// The URL may hold a password: never repeat it.
		return 0, "", quire.Invalid("databaseURL", "is not a valid URL")
	}
	switch u.Scheme {
	case "postgres", "postgresql":
		return enginePostgres, c.DatabaseURL, nil
	}
	return 0, "", quire.Invalid("databaseURL", "unsupported scheme %q: use postgres:// or leave it empty for SQLite", u.Scheme)
}

// Open connects, applies pending migrations, and refuses a database whose
// schema is newer than this binary.
func Open(ctx context.Context, c Config) (quire.Store, error) {
	kind, target, err := c.target()
	if err != nil {
		return nil, err
	}
	var opts []sqlstore.Option
	if c.Now != nil {
		opts = append(opts, sqlstore.WithClock(c.Now))
	}
	if c.OpenPool != nil {
		opts = append(opts, sqlstore.WithPoolOpener(c.OpenPool))
	}
	// Assign through concrete variables so that a failed open returns a
	// nil interface, not an interface holding a nil pointer.
	if kind == enginePostgres {
		st, err := postgres.Open(ctx, target, opts...)
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	st, err := sqlite.Open(ctx, target, opts...)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// Migrate applies pending migrations and returns the schema version before
// and after.
func Migrate(ctx context.Context, c Config) (from, to int64, err error) {
	return MigrateTo(ctx, c, math.MaxInt64)
}

// MigrateTo is Migrate stopping at version: the schema an earlier binary
// left, for testing upgrades from it.
func MigrateTo(ctx context.Context, c Config, version int64) (from, to int64, err error) {
	kind, target, err := c.target()
	if err != nil {
		return 0, 0, err
	}
	if kind == enginePostgres {
		return postgres.MigrateTo(ctx, target, version)
	}
	return sqlite.MigrateTo(ctx, target, version)
}

// PlanMigrations says which migrations Migrate would apply, reading the
// database only: it creates neither a data directory nor a file.
func PlanMigrations(ctx context.Context, c Config) (*sqlstore.MigrationPlan, error) {
	kind, target, err := c.resolve()
	if err != nil {
		return nil, err
	}
	if kind == enginePostgres {
		return postgres.PlanMigrations(ctx, target)
	}
	return sqlite.PlanMigrations(ctx, target)
}
