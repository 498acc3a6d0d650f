package cli

import (
	"context"
	"fmt"

	"quire/internal/store"
)

// migrateSynopsis is the first line of migrate's usage.
const migrateSynopsis = "quire migrate [--dry-run] [--data DIR] [--database URL]"

// runMigrate applies pending migrations and prints the schema versions
// before and after as {"from":N,"to":M}. With --dry-run it changes
// nothing and adds the migrations it would apply, each with its version,
// name and summary, as "pending".
func runMigrate(ctx context.Context, args []string, env Env) error {
	var sc StoreConfig
	fs := newFlagSet("migrate")
	sc.register(fs, env.Getenv)
	dryRun := fs.Bool("dry-run", false, "list the migrations that would run, and change nothing")
	if err := parseFlags(fs, migrateSynopsis, args); err != nil {
		return err
	}
	if err := sc.Validate(); err != nil {
		return usageError{err: err}
	}
	if *dryRun {
		plan, err := store.PlanMigrations(ctx, sc.store())
		if err != nil {
			return fmt.Errorf("reading the schema version: %w", err)
		}
		return printJSON(env.Stdout, plan)
	}
	if err := sc.prepare(); err != nil {
		return fmt.Errorf("creating the data directory: %w", err)
	}
	from, to, err := store.Migrate(ctx, sc.store())
	if err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	return printJSON(env.Stdout, struct {
		From int64 `json:"from"`
		To   int64 `json:"to"`
	}{from, to})
}
