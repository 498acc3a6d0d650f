package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/blob"
	"quire/internal/store/dump"
	"quire/internal/store/dump/dumptest"
)

// bootstrapArchive makes a data directory holding an organization, its
// admin and a token, backs it up and returns the archive and the
// directory.
func bootstrapArchive(t *testing.T) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "src")
	code, _, stderr := runCmd(t, env(nil), "admin", "bootstrap", "--data", dir, "--email", "a@example.com", "--name", "Ann")
	if code != 0 {
		t.Fatalf("bootstrap: %d %s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "backup.tar.gz")
	if code, _, stderr := runCmd(t, env(nil), "backup", file, "--data", dir); code != 0 {
		t.Fatalf("backup: %d %s", code, stderr)
	}
	return file, dir
}

// rowCount counts the rows of every table a backup carries.
func rowCount(t *testing.T, db querier, names []string) int {
	t.Helper()
	n := 0
	for _, name := range names {
		n += len(rowsOf(t, db, "SELECT 1 FROM "+name))
	}
	return n
}

// TestRestoreRefusesNonEmpty checks that a restore loads nothing into a
// database holding rows, or beside blobs of other data, and that a
// database with the schema and no rows counts as empty.
func TestRestoreRefusesNonEmpty(t *testing.T) {
	file, src := bootstrapArchive(t)
	before := rowsOf(t, openSQLite(t, src), "SELECT id, email FROM users")

	code, _, stderr := runCmd(t, env(nil), "restore", file, "--data", src)
	if code != 1 || !strings.Contains(stderr, "the target is not empty: the database holds rows in") ||
		!strings.Contains(stderr, "users") {
		t.Errorf("restore into the source: %d %s", code, stderr)
	}
	sameRows(t, "the source after a refused restore", before, rowsOf(t, openSQLite(t, src), "SELECT id, email FROM users"))

	// Blobs of other data: refused, and the database file made for the
	// restore is gone again.
	other := filepath.Join(t.TempDir(), "other")
	bs, err := blob.Open(t.Context(), "", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := bs.Put(t.Context(), strings.NewReader("a file of other data"), -1); err != nil {
		t.Fatal(err)
	}
	bs.Close()
	code, _, stderr = runCmd(t, env(nil), "restore", file, "--data", other)
	if code != 1 || !strings.Contains(stderr, "the blob store holds files not in the archive") {
		t.Errorf("restore beside other blobs: %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(other, "quire.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused restore left a database: %v", err)
	}

	if os.Getenv("QUIRE_TEST_POSTGRES_URL") == "" {
		return
	}
	pg := postgresURL(t)
	// A database migrated and empty takes the archive.
	if code, _, stderr := runCmd(t, env(nil), "migrate", "--database", pg, "--data", t.TempDir()); code != 0 {
		t.Fatalf("migrate: %d %s", code, stderr)
	}
	pgData := filepath.Join(t.TempDir(), "pg")
	if code, _, stderr := runCmd(t, env(nil), "restore", file, "--database", pg, "--data", pgData); code != 0 {
		t.Fatalf("restore into a migrated database: %d %s", code, stderr)
	}
	code, _, stderr = runCmd(t, env(nil), "restore", file, "--database", pg, "--data", filepath.Join(t.TempDir(), "pg2"))
	if code != 1 || !strings.Contains(stderr, "the target is not empty") {
		t.Errorf("second restore into PostgreSQL: %d %s", code, stderr)
	}
	sameRows(t, "users restored in PostgreSQL", before, rowsOf(t, openPostgres(t, pg), "SELECT id, email FROM users"))
}

// TestRestoreBadArchive checks that an archive cut short, damaged, not
// an archive, or whose rows do not load, is refused with a message
// saying so, and leaves the target as it was: no data directory, and no
// row in the database.
func TestRestoreBadArchive(t *testing.T) {
	file, _ := bootstrapArchive(t)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	write := func(data []byte) string {
		p := filepath.Join(t.TempDir(), "bad.tar.gz")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x55
		return b
	}
	// pg also restores into PostgreSQL: an archive refused before the
	// restore writes, and one refused while it loads.
	cases := []struct {
		name, path, want string
		pg               bool
	}{
		{"cut short", write(good[:len(good)*2/3]), "cut short", true},
		{"a byte changed", write(flip(len(good) - 6)), "the file is damaged: gzip: invalid checksum", false},
		{"not an archive", write([]byte("name,email\nAnn,a@example.com\n")), "not a Quire backup", false},
		{"missing", filepath.Join(t.TempDir(), "nowhere.tar.gz"), "no such file", false},
		// Whole, but its tokens refer to users it does not hold: the
		// load fails at the commit.
		{"rows that do not load", write(withoutTable(t, good, "users")), "(nothing was loaded)", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "target")
			code, _, stderr := runCmd(t, env(nil), "restore", c.path, "--data", dir)
			if code != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("restore: %d %s; want 1 and %q", code, stderr, c.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the failed restore left %s: %v", dir, err)
			}
			if !c.pg || os.Getenv("QUIRE_TEST_POSTGRES_URL") == "" {
				return
			}
			pg := postgresURL(t)
			code, _, stderr = runCmd(t, env(nil), "restore", c.path, "--database", pg, "--data", dir)
			if code != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("restore into PostgreSQL: %d %s; want 1 and %q", code, stderr, c.want)
			}
			db := openPostgres(t, pg)
			if n := rowCount(t, db, tableNames(t, db, "postgres")); n != 0 {
				t.Errorf("the failed restore left %d rows", n)
			}
			// What a failed restore leaves takes a good archive.
			if code, _, stderr := runCmd(t, env(nil), "restore", file, "--database", pg, "--data", dir); code != 0 {
				t.Errorf("restore after the failed one: %d %s", code, stderr)
			}
		})
	}
}

// withoutTable rewrites an archive without the rows of one table, its
// manifest saying so: an archive that reads whole but does not load.
func withoutTable(t *testing.T, archive []byte, table string) []byte {
	t.Helper()
	drop := func(name string) bool { return strings.HasPrefix(name, "tables/"+table+"/") }
	return dumptest.Rewrite(t, archive, drop, func(m *dump.Manifest) {
		for i := range m.Tables {
			if m.Tables[i].Name == table {
				empty := sha256.Sum256(nil)
				m.Tables[i].Sum = dump.Sum{SHA256: hex.EncodeToString(empty[:])}
			}
		}
	})
}
