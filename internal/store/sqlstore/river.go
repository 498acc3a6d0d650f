package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"
)

// RiverMigrationVersion is the number of the goose migration that creates
// the job queue's tables on both engines.
const RiverMigrationVersion = 6

// riverSchemaVersion is the version of River's own schema that migration
// RiverMigrationVersion brings up. A later River release with a newer
// schema gets a new goose migration going up to it, so that this one
// always creates the same tables.
const riverSchemaVersion = 8

// RiverTx says how the job queue's migration runs River's steps.
type RiverTx int

// Transaction modes of the job queue's migration.
const (
	// RiverInGooseTx runs every River step in the transaction in which goose
	// records the version: all or nothing. SQLite's single writer
	// connection needs it (goose holds that connection while it migrates).
	RiverInGooseTx RiverTx = iota
	// RiverTxPerStep commits each River step on its own, on the pool, as
	// River's migrator does by default. PostgreSQL needs it: one step adds
	// an enum value and a later one uses it, which PostgreSQL refuses
	// before the value is committed. A step that fails leaves the ones
	// before it recorded in River's own river_migration table, and the next
	// run goes on from there.
	RiverTxPerStep
)

// RiverDriver makes River's driver for an engine over a pool (nil for
// use inside a transaction only).
type RiverDriver func(db *sql.DB) riverdriver.Driver[*sql.Tx]

// RiverMigration returns goose migration RiverMigrationVersion: River's job
// tables (river_job, river_leader, river_queue, …, and river_migration,
// where River records its own versions), created by River's own migrator.
func RiverMigration(driver RiverDriver, mode RiverTx) *goose.Migration {
	upOpts := &rivermigrate.MigrateOpts{TargetVersion: riverSchemaVersion}
	downOpts := &rivermigrate.MigrateOpts{TargetVersion: -1}
	if mode == RiverInGooseTx {
		run := func(dir rivermigrate.Direction, opts *rivermigrate.MigrateOpts) *goose.GoFunc {
			return &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
				m, err := riverMigrator(driver(nil))
				if err != nil {
					return err
				}
				// MigrateTx is deprecated only because some PostgreSQL
				// steps cannot share a transaction; SQLite's can.
				//lint:ignore SA1019 this path runs only on SQLite, whose steps share one transaction
				if _, err := m.MigrateTx(ctx, tx, dir, opts); err != nil {
					return fmt.Errorf("job queue tables: %w", err)
				}
				return nil
			}}
		}
		return goose.NewGoMigration(RiverMigrationVersion, run(rivermigrate.DirectionUp, upOpts),
			run(rivermigrate.DirectionDown, downOpts))
	}
	run := func(dir rivermigrate.Direction, opts *rivermigrate.MigrateOpts) *goose.GoFunc {
		return &goose.GoFunc{RunDB: func(ctx context.Context, db *sql.DB) error {
			m, err := riverMigrator(driver(db))
			if err != nil {
				return err
			}
			if _, err := m.Migrate(ctx, dir, opts); err != nil {
				return fmt.Errorf("job queue tables: %w", err)
			}
			return nil
		}}
	}
	return goose.NewGoMigration(RiverMigrationVersion, run(rivermigrate.DirectionUp, upOpts),
		run(rivermigrate.DirectionDown, downOpts))
}

// riverMigrator returns River's migrator over d, logging nothing: goose
// reports the migration.
func riverMigrator(d riverdriver.Driver[*sql.Tx]) (*rivermigrate.Migrator[*sql.Tx], error) {
	m, err := rivermigrate.New(d, &rivermigrate.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, fmt.Errorf("job queue migrations: %w", err)
	}
	return m, nil
}
