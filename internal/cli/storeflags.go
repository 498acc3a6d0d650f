package cli

import (
	"errors"
	"flag"
	"os"
	"strings"

	"quire/internal/store"
)

// DefaultDataDir is the data directory when neither --data nor QUIRE_DATA
// is given.
const DefaultDataDir = "./quire-data"

// StoreConfig says where the data lives; every command that opens the
// database takes it from --data and --database, or QUIRE_DATA and
// QUIRE_DATABASE_URL.
type StoreConfig struct {
	// DataDir holds the SQLite database and the admin-token file.
	DataDir string
	// DatabaseURL is a postgres:// URL, or empty for SQLite in DataDir.
	DatabaseURL string
	// BlobURL says where uploaded files live: empty for DataDir/blobs,
	// file:///path, or s3://bucket?region=… for a bucket replicas share.
	BlobURL string
}

// register adds --data and --database to fs, defaulting to the
// environment.
func (c *StoreConfig) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&c.DataDir, "data", envDefault(getenv, "QUIRE_DATA", DefaultDataDir),
		"data directory (env QUIRE_DATA)")
	fs.StringVar(&c.DatabaseURL, "database", envDefault(getenv, "QUIRE_DATABASE_URL", ""),
		"PostgreSQL URL; empty for SQLite in the data directory (env QUIRE_DATABASE_URL)")
	fs.StringVar(&c.BlobURL, "blobs", envDefault(getenv, "QUIRE_BLOB_URL", ""),
		"where uploaded files live: empty for <data>/blobs, file:///path or s3://bucket?region=... (env QUIRE_BLOB_URL)")
}

// Validate checks the data directory and the database URL.
func (c StoreConfig) Validate() error {
	if strings.TrimSpace(c.DataDir) == "" {
		return errors.New("--data must not be empty")
	}
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") &&
		!strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		return errors.New("--database must be a postgres:// URL, or empty for SQLite")
	}
	return nil
}

// prepare creates the data directory, readable by its owner only, when
// the database is SQLite inside it.
func (c StoreConfig) prepare() error {
	if c.DatabaseURL != "" {
		return nil
	}
	return os.MkdirAll(c.DataDir, 0o700)
}

// store returns the store package's view of c.
func (c StoreConfig) store() store.Config {
	return store.Config{DatabaseURL: c.DatabaseURL, DataDir: c.DataDir}
}
