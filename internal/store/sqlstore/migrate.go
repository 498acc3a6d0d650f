package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"math"

	"github.com/pressly/goose/v3"

	"quire/internal/quire"
)

// Migrate applies the pending numbered migrations found in fsys to db and
// returns the schema version before and after. It refuses, changing
// nothing, a database whose version is newer than the newest migration in
// fsys: that database was written by a newer binary. Extra options (a
// session locker, for instance) are passed to goose.
func Migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, fsys fs.FS, opts ...goose.ProviderOption) (from, to int64, err error) {
	return MigrateTo(ctx, db, dialect, fsys, math.MaxInt64, opts...)
}

// MigrateTo is Migrate stopping at version: the schema of an earlier
// binary, for testing upgrades from it.
func MigrateTo(ctx context.Context, db *sql.DB, dialect goose.Dialect, fsys fs.FS, version int64, opts ...goose.ProviderOption) (from, to int64, err error) {
	opts = append([]goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}, opts...)
	p, err := goose.NewProvider(dialect, db, fsys, opts...)
	if err != nil {
		return 0, 0, fmt.Errorf("sqlstore: migrations: %w", err)
	}
	from, err = p.GetDBVersion(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("sqlstore: schema version: %w", err)
	}
	sources := p.ListSources()
	newest := sources[len(sources)-1].Version
	if from > newest {
		return from, from, &quire.Error{
			Code:    quire.EPRECONDITION,
			Message: fmt.Sprintf("database schema version %d is newer than this binary (%d)", from, newest),
		}
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		return from, from, fmt.Errorf("sqlstore: migrate from version %d: %w", from, err)
	}
	to, err = p.GetDBVersion(ctx)
	if err != nil {
		return from, from, fmt.Errorf("sqlstore: schema version: %w", err)
	}
	return from, to, nil
}
