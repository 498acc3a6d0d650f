package store_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"quire/internal/store"
)

// TestPlanMigrations checks the dry run of a migration on both engines: an
// empty database lacks every migration and is not created, one an earlier
// binary left lacks exactly the later ones (named and summarized from
// their files), asking changes nothing, and a migrated one lacks none.
func TestPlanMigrations(t *testing.T) {
	for name, config := range engines() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := config(t)
			all, err := store.PlanMigrations(ctx, c)
			if err != nil {
				t.Fatalf("plan on an empty database: %v", err)
			}
			if all.From != 0 || len(all.Pending) < 2 || all.To != all.Pending[len(all.Pending)-1].Version {
				t.Fatalf("plan on an empty database: %+v", all)
			}
			if c.DataDir != "" {
				if _, err := os.Stat(c.DataDir); !os.IsNotExist(err) {
					t.Fatalf("the dry run made the data directory: %v", err)
				}
			}
			for _, m := range all.Pending {
				if m.Name == "" || strings.Contains(m.Name, ".sql") {
					t.Errorf("migration %d is named %q", m.Version, m.Name)
				}
			}
			if first := all.Pending[0]; first.Version != 1 || first.Name != "initial" || !strings.HasPrefix(first.Summary, "Initial schema.") {
				t.Errorf("first migration: %+v", first)
			}

			// The schema an earlier binary left.
			middle := all.Pending[len(all.Pending)/2].Version
			if _, to, err := store.MigrateTo(ctx, c, middle); err != nil || to != middle {
				t.Fatalf("migrate to %d: %d, %v", middle, to, err)
			}
			for range 2 {
				plan, err := store.PlanMigrations(ctx, c)
				if err != nil {
					t.Fatalf("plan at %d: %v", middle, err)
				}
				want := all.Pending[len(all.Pending)/2+1:]
				if plan.From != middle || plan.To != all.To || len(plan.Pending) != len(want) {
					t.Fatalf("plan at %d: from %d to %d with %d pending, want %d to %d with %d", middle,
						plan.From, plan.To, len(plan.Pending), middle, all.To, len(want))
				}
				for i := range want {
					if plan.Pending[i] != want[i] {
						t.Errorf("pending %d: %+v, want %+v", i, plan.Pending[i], want[i])
					}
				}
			}

			if _, _, err := store.Migrate(ctx, c); err != nil {
				t.Fatal(err)
			}
			done, err := store.PlanMigrations(ctx, c)
			if err != nil || done.From != all.To || done.To != all.To || len(done.Pending) != 0 {
				t.Fatalf("plan after migrating: %+v, %v", done, err)
			}

			newer := all.To + 5
			if _, err := rawDB(t, c).ExecContext(ctx,
				"INSERT INTO goose_db_version (version_id, is_applied) VALUES ("+itoa(newer)+", TRUE)"); err != nil {
				t.Fatal(err)
			}
			if _, err := store.PlanMigrations(ctx, c); err == nil || !strings.Contains(err.Error(), "newer than this binary") {
				t.Fatalf("plan on a newer schema: %v", err)
			}
		})
	}
}
