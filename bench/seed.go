package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/jackc/pgx/v5"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

// seedBatch is how many spaces go in one transaction while seeding.
const seedBatch = 1000

// engine is one database the benchmark runs on, with what removes it.
type engine struct {
	name    string
	cfg     store.Config
	cleanup func() error
}

// newEngine creates a fresh database of the named engine: "postgres" on
// cfg.postgresURL, else SQLite.
func newEngine(ctx context.Context, cfg config, name string) (*engine, error) {
	if name == "postgres" {
		return postgresEngine(ctx, cfg.postgresURL)
	}
	return sqliteEngine()
}

// sqliteEngine returns an engine on a SQLite file in a new temporary
// directory, removed by cleanup.
func sqliteEngine() (*engine, error) {
	dir, err := os.MkdirTemp("", "quire-bench-")
	if err != nil {
		return nil, err
	}
	return &engine{
		name:    "sqlite",
		cfg:     store.Config{DataDir: dir},
		cleanup: func() error { return os.RemoveAll(dir) },
	}, nil
}

// postgresEngine creates a new, empty database on the server at base and
// returns an engine on it; cleanup drops the database.
func postgresEngine(ctx context.Context, base string) (*engine, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("parsing the PostgreSQL URL: %w", err)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	name := "quire_bench_" + hex.EncodeToString(b[:])
	if err := pgExec(ctx, base, "CREATE DATABASE "+name); err != nil {
		return nil, fmt.Errorf("creating database %s: %w", name, err)
	}
	u.Path = "/" + name
	return &engine{
		name: "postgres",
		cfg:  store.Config{DatabaseURL: u.String()},
		cleanup: func() error {
			// The run's context may be cancelled by now; dropping must
			// still happen.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := pgExec(ctx, base, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
				return fmt.Errorf("dropping database %s: %w", name, err)
			}
			return nil
		},
	}, nil
}

// pgExec runs one statement on its own connection to the server at url.
func pgExec(ctx context.Context, url, stmt string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, stmt)
	return err
}

// fixture is the seeded data the requests name.
type fixture struct {
	orgID    string
	token    string
	spaceIDs []string
}

// seed bootstraps an organization with its owner and API token, then
// stores n spaces at the organization's root directly through the store,
// seedBatch to a transaction, in the order of their position keys.
func seed(ctx context.Context, st quire.Store, svc *service.Service, n int) (*fixture, error) {
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{
		OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return nil, fmt.Errorf("bootstrapping: %w", err)
	}
	fx := &fixture{orgID: boot.Organization, token: boot.Token, spaceIDs: make([]string, 0, n)}
	now := svc.Now()
	for start := 0; start < n; start += seedBatch {
		end := min(start+seedBatch, n)
		var ids []string // reset on every attempt: WithTx may retry
		err := st.WithTx(ctx, func(tx quire.Store) error {
			ids = ids[:0]
			for i := start; i < end; i++ {
				sp := newSpace(fx.orgID, i, now)
				if err := tx.CreateSpace(ctx, sp); err != nil {
					return err
				}
				ids = append(ids, sp.ID)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("seeding spaces %d-%d: %w", start, end-1, err)
		}
		fx.spaceIDs = append(fx.spaceIDs, ids...)
	}
	return fx, nil
}

// newSpace returns the i-th seeded space, shaped as the service creates
// one. Titles have a fixed width so every single-space body has the same
// length; position keys increase with i and end in "1" because keys never
// end in the lowest digit.
func newSpace(orgID string, i int, now time.Time) *quire.Space {
	return &quire.Space{
		ID: quire.NewID(), OrgID: orgID, Title: fmt.Sprintf("Space %05d", i),
		Visibility: quire.VisibilityPrivate, EditMode: quire.EditModeLive,
		DefaultLevel: quire.DefaultInherit, MergeRules: quire.MergeRules{Type: "inherit"},
		Revision: quire.NewID(), Position: fmt.Sprintf("%08d1", i), CreatedAt: now, UpdatedAt: now,
	}
}
