package service

import (
	"testing"

	"quire/internal/quire"
	"quire/internal/store"
	"quire/internal/store/storetest"
)

// Bootstrapped is a service over a fresh SQLite store (a copy of a
// migrated database) in a temporary directory, bootstrapped with one organization and its first admin:
// the start of most service tests.
type Bootstrapped struct {
	Svc   *Service
	Store quire.Store
	Admin *quire.User
	Org   string
}

// NewBootstrapped opens the store, builds the service with opts and
// bootstraps it; the store closes when the test ends.
func NewBootstrapped(t testing.TB, opts ...Option) *Bootstrapped {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, store.Config{DataDir: storetest.MigratedSQLiteDir(t, store.SQLiteFile)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := New(st, opts...)
	boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := st.User(ctx, boot.User)
	if err != nil {
		t.Fatal(err)
	}
	return &Bootstrapped{Svc: svc, Store: st, Admin: admin, Org: boot.Organization}
}

// EachStore runs fn, as a subtest per engine, on a fresh store of every
// engine available: SQLite always, PostgreSQL when the tests are given a
// server; each database is a copy of a migrated one. The store closes when the subtest ends.
func EachStore(t *testing.T, fn func(t *testing.T, st quire.Store)) {
	for name, cfg := range map[string]func(t *testing.T) store.Config{
		"sqlite": func(t *testing.T) store.Config {
			return store.Config{DataDir: storetest.MigratedSQLiteDir(t, store.SQLiteFile)}
		},
		"postgres": func(t *testing.T) store.Config { return store.Config{DatabaseURL: storetest.MigratedPostgresDB(t)} },
	} {
		t.Run(name, func(t *testing.T) {
			st, err := store.Open(t.Context(), cfg(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = st.Close() })
			fn(t, st)
		})
	}
}
