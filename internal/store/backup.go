package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"

	"github.com/pressly/goose/v3"

	"quire/internal/quire"
	"quire/internal/store/dump"
	"quire/internal/store/postgres"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
)

// OpenSnapshot starts a backup's read of the database c points at, as a
// running server has it: one snapshot, read-only, and no migration. A
// database whose schema is newer than this binary is refused.
func OpenSnapshot(ctx context.Context, c Config) (*dump.Snapshot, error) {
	kind, target, err := c.resolve()
	if err != nil {
		return nil, err
	}
	var db *sql.DB
	var eng dump.Engine
	if kind == enginePostgres {
		eng = postgres.DumpEngine{}
		db, err = postgres.OpenBackup(ctx, target)
	} else {
		eng = sqlite.DumpEngine{}
		db, err = sqlite.OpenBackupSource(ctx, target)
	}
	if err != nil {
		return nil, err
	}
	snap, err := dump.Begin(ctx, eng, db)
	if err != nil {
		return nil, err
	}
	if newest := newestVersion(kind); snap.SchemaVersion() > newest {
		return nil, errors.Join(tooNew("database", snap.SchemaVersion(), newest), snap.Close())
	}
	return snap, nil
}

// Backup writes an archive of the database c points at, and of blobs, to
// w (see package dump), and returns its manifest.
func Backup(ctx context.Context, c Config, blobs dump.Blobs, w io.Writer) (*dump.Manifest, error) {
	snap, err := OpenSnapshot(ctx, c)
	if err != nil {
		return nil, err
	}
	m, err := snap.Write(ctx, blobs, w)
	return m, errors.Join(err, snap.Close())
}

// Restored tells what a restore did.
type Restored struct {
	// From is the archive's schema version, To the version the database
	// was migrated to after the load.
	From, To int64
}

// Restore loads the archive a (checked by dump.Open) into the database c
// points at, which must hold no data, and its blobs into blobs: the
// database is migrated to the archive's schema version, loaded in one
// transaction, then migrated to this binary's newest version. fold
// rebuilds the search index. A target that is not empty is refused with a
// *dump.NotEmptyError; when the load fails, the database holds no rows
// (an SQLite file made by the restore is removed again).
func Restore(ctx context.Context, c Config, a *dump.Archive, blobs dump.Blobs, fold dump.Fold) (_ Restored, err error) {
	kind, target, err := c.target()
	if err != nil {
		return Restored{}, err
	}
	version := a.Manifest.SchemaVersion
	if newest := newestVersion(kind); version > newest {
		return Restored{}, tooNew("archive", version, newest)
	}
	var (
		db      *sql.DB
		eng     dump.Engine
		created bool
		loaded  bool
		migrate func(ctx context.Context, db *sql.DB, version int64) (int64, int64, error)
	)
	if kind == enginePostgres {
		eng, migrate = postgres.DumpEngine{}, postgres.MigrateRestoreTarget
		db, err = postgres.OpenBackup(ctx, target)
	} else {
		eng, migrate = sqlite.DumpEngine{}, sqlite.MigrateRestoreTarget
		db, created, err = sqlite.OpenRestoreTarget(ctx, target)
	}
	if err != nil {
		return Restored{}, err
	}
	defer func() {
		err = errors.Join(err, db.Close())
		if err != nil && created && !loaded {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				_ = os.Remove(target + suffix)
			}
		}
	}()
	if err := a.CheckEmpty(ctx, eng, db, blobs); err != nil {
		return Restored{}, err
	}
	from, at, err := migrate(ctx, db, version)
	if err != nil {
		return Restored{}, fmt.Errorf("migrating the target to the archive's schema: %w", err)
	}
	if at != version {
		return Restored{}, &dump.NotEmptyError{What: fmt.Sprintf(
			"the database's schema is at version %d, past the archive's %d", from, version)}
	}
	if err := a.Load(ctx, eng, db, blobs, fold); err != nil {
		return Restored{}, err
	}
	loaded = true
	_, to, err := migrate(ctx, db, math.MaxInt64)
	if err != nil {
		// The data is in; a server starting on it migrates again.
		return Restored{From: version, To: version}, fmt.Errorf("migrating the restored database: %w", err)
	}
	return Restored{From: version, To: to}, nil
}

// tooNew is the error of a schema version newer than this binary's.
func tooNew(what string, version, newest int64) error {
	return &quire.Error{Code: quire.EPRECONDITION,
		Message: fmt.Sprintf("the %s's schema version %d is newer than this binary (%d)", what, version, newest)}
}

// newestVersion is the newest migration this binary has for the engine.
func newestVersion(kind engine) int64 {
	fsys := sqlite.Migrations()
	if kind == enginePostgres {
		fsys = postgres.Migrations()
	}
	newest := int64(sqlstore.RiverMigrationVersion)
	entries, _ := fs.ReadDir(fsys, ".") // embedded: cannot fail
	for _, e := range entries {
		if v, err := goose.NumericComponent(e.Name()); err == nil {
			newest = max(newest, v)
		}
	}
	return newest
}
