package storetest

import (
	"context"
	"database/sql"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgresEnv names the variable holding the URL of a PostgreSQL server
// the tests may create and drop databases on. Without it the PostgreSQL
// tests are skipped.
const PostgresEnv = "QUIRE_TEST_POSTGRES_URL"

// SkipWithoutPostgres skips the test unless PostgresEnv is set, and
// returns its value.
func SkipWithoutPostgres(t *testing.T) string {
	t.Helper()
	admin := os.Getenv(PostgresEnv)
	if admin == "" {
		t.Skipf("%s is not set: skipping the PostgreSQL tests", PostgresEnv)
	}
	return admin
}

// PostgresDB creates a fresh, empty database on the server of
// PostgresEnv, dropped again when the test ends, and returns its URL. It
// skips the test when PostgresEnv is not set.
func PostgresDB(t *testing.T) string {
	t.Helper()
	admin := SkipWithoutPostgres(t)
	cfg, err := pgx.ParseConfig(admin)
	if err != nil {
		t.Fatalf("parse %s: %v", PostgresEnv, err)
	}
	db := stdlib.OpenDB(*cfg)
	name := "quire_t_" + randomHex()
	if _, err := db.ExecContext(t.Context(), "CREATE DATABASE "+name); err != nil {
		_ = db.Close()
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() { dropDatabase(t, db, name) })
	return databaseURL(t, admin, name)
}

// dropDatabase drops a test database, closing its remaining connections,
// and closes the admin pool.
func dropDatabase(t testing.TB, db *sql.DB, name string) {
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Errorf("drop database %s: %v", name, err)
	}
}
