package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/blob"
	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/store/dump"
)

// TestBackupUnderLoad takes a backup while writers create spaces, pages,
// files and comments, restores it into a new data directory and into a
// new PostgreSQL database, and compares every table with what the
// backup's snapshot reads: what was committed at that moment, all of it,
// and nothing written after it.
func TestBackupUnderLoad(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			// The writers are a load test: no rate limit answers them 429
			// on a machine fast enough to pass the default.
			args := []string{"--addr", "127.0.0.1:0", "--data", dir, "--rate-limit", "0"}
			cfg := store.Config{DataDir: dir}
			if engine == "postgres" {
				cfg.DatabaseURL = postgresURL(t)
				args = append(args, "--database", cfg.DatabaseURL)
			}
			s := startServe(t, env(nil), args...)
			c, org := adminAPI(t, s, dir)
			seed(t, c, org)

			// Writers go on until told to stop; rounds counts what they
			// finished.
			ctx, stop := context.WithCancel(t.Context())
			var rounds atomic.Int64
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for w := range 3 {
				wg.Go(func() {
					for n := 0; ctx.Err() == nil; n++ {
						if _, err := writeRound(ctx, c, org, "", w*10000+n); err != nil {
							if ctx.Err() == nil {
								errs <- err
								stop()
							}
							return
						}
						rounds.Add(1)
					}
				})
			}
			waitRounds := func(n int64) {
				t.Helper()
				for rounds.Load() < n && ctx.Err() == nil {
					time.Sleep(5 * time.Millisecond)
				}
			}
			waitRounds(3)

			snap, err := store.OpenSnapshot(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer snap.Close()
			blobs, err := blob.Open(t.Context(), "", dir)
			if err != nil {
				t.Fatal(err)
			}
			defer blobs.Close()
			archive := filepath.Join(t.TempDir(), "backup.tar.gz")
			f, err := os.Create(archive)
			if err != nil {
				t.Fatal(err)
			}
			m, err := snap.Write(t.Context(), blobs, f)
			if err = errors.Join(err, f.Close()); err != nil {
				t.Fatal(err)
			}
			// Writes go on after the snapshot, and must not be in it.
			waitRounds(rounds.Load() + 3)
			stop()
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatalf("writer: %v", err)
			}

			want := map[string][]string{}
			snapQ := snapshotQuerier{q: snap.Query}
			for _, e := range m.Tables {
				want[e.Name] = rowsOf(t, snapQ, "SELECT "+quotedColumns(e)+" FROM "+e.Name)
			}
			live := openSource(t, cfg)
			if n, at := len(rowsOf(t, live, "SELECT id FROM spaces")), len(want["spaces"]); n <= at {
				t.Fatalf("the source holds %d spaces, the snapshot %d: no writes after it", n, at)
			}

			sqliteDir := filepath.Join(t.TempDir(), "restored")
			targets := []restoreTarget{{"sqlite", []string{"--data", sqliteDir}, func() *sql.DB { return openSQLite(t, sqliteDir) }}}
			if os.Getenv("QUIRE_TEST_POSTGRES_URL") != "" {
				pg := postgresURL(t)
				targets = append(targets, restoreTarget{"postgres", []string{"--data", filepath.Join(t.TempDir(), "pgdata"),
					"--database", pg}, func() *sql.DB { return openPostgres(t, pg) }})
			}
			for _, tg := range targets {
				code, out, stderr := runCmd(t, env(nil), append(append([]string{"restore"}, tg.args...), archive)...)
				if code != 0 {
					t.Fatalf("restore into %s: %d %s", tg.name, code, stderr)
				}
				var sum struct{ Rows, Blobs int64 }
				if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Rows != m.Rows() || sum.Blobs != m.Blobs.Count {
					t.Errorf("restore into %s printed %s (%v); want %d rows, %d blobs", tg.name, out, err, m.Rows(), m.Blobs.Count)
				}
				db := tg.open()
				for _, e := range m.Tables {
					sameRows(t, tg.name+": table "+e.Name, want[e.Name],
						rowsOf(t, db, "SELECT "+quotedColumns(e)+" FROM "+e.Name))
				}
				checkWhole(t, db)
			}
		})
	}
}

// quotedColumns lists the columns of a manifest's table for a SELECT.
func quotedColumns(e dump.TableEntry) string {
	names := make([]string, len(e.Columns))
	for i, c := range e.Columns {
		names[i] = `"` + c.Name + `"`
	}
	return strings.Join(names, ", ")
}

// openSource opens the database of cfg to read it.
func openSource(t *testing.T, cfg store.Config) *sql.DB {
	if cfg.DatabaseURL != "" {
		return openPostgres(t, cfg.DatabaseURL)
	}
	return openSQLite(t, cfg.DataDir)
}

// restoreTarget is where a test restores to: its name, the flags naming
// it, and how to open the database restored.
type restoreTarget struct {
	name string
	args []string
	open func() *sql.DB
}

// checkWhole checks that what the restored database holds hangs
// together, as it would not if the tables had been read at different
// moments: each space's revision is there, with its page tree's root
// object, and every change request and comment belongs to a space there.
func checkWhole(t *testing.T, db *sql.DB) {
	t.Helper()
	for what, query := range map[string]string{
		"spaces without their revision": `SELECT s.id FROM spaces s WHERE s.revision <> ''
			AND NOT EXISTS (SELECT 1 FROM revisions r WHERE r.id = s.revision)`,
		"revisions without their pages": `SELECT r.id FROM revisions r WHERE r.pages_root <> ''
			AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.key = r.pages_root)`,
		"comments without a space": `SELECT c.id FROM comments c WHERE NOT EXISTS (SELECT 1 FROM spaces s WHERE s.id = c.space_id)`,
		"replies without a comment": `SELECT r.id FROM comment_replies r
			WHERE NOT EXISTS (SELECT 1 FROM comments c WHERE c.id = r.comment_id)`,
		"comment counts that disagree": `SELECT c.id FROM comments c
			WHERE c.replies <> (SELECT count(*) FROM comment_replies r WHERE r.comment_id = c.id)`,
	} {
		if rows := rowsOf(t, db, query); len(rows) > 0 {
			t.Errorf("%s: %s", what, rows)
		}
	}
}

// TestBackupKeepsTokensAndLinks backs up a running server that seals its
// keys under a secret key, restores the archive into a new data
// directory and into PostgreSQL, and starts a server on each with the
// same secret key: the API tokens and the signed download links given
// out before the backup still work.
func TestBackupKeepsTokensAndLinks(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "secret.key")
	if err := os.WriteFile(keyFile, []byte(strings.Repeat("k", 32)), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "data")
	s := startServe(t, env(nil), "--addr", "127.0.0.1:0", "--data", dir, "--secret-key-file", keyFile)
	c, org := adminAPI(t, s, dir)
	code, out, stderr := runCmd(t, env(nil), "admin", "token", "create", "--data", dir, "--email", DefaultAdminEmail)
	if code != 0 {
		t.Fatalf("token create: %d %s", code, stderr)
	}
	var created struct{ Token string }
	if err := json.Unmarshal([]byte(out), &created); err != nil || created.Token == "" {
		t.Fatalf("token create printed %q: %v", out, err)
	}
	w := seed(t, c, org)[1]
	link, err := url.Parse(w.link)
	if err != nil || w.link == "" {
		t.Fatalf("download link %q: %v", w.link, err)
	}
	if code, body := s.get(t, link.RequestURI(), ""); code != 200 || body != string(w.data) {
		t.Fatalf("the link before the backup: %d %q", code, body)
	}

	archive := filepath.Join(t.TempDir(), "quire.tar.gz")
	if code, _, stderr := runCmd(t, env(nil), "backup", "--data", dir, archive); code != 0 {
		t.Fatalf("backup: %d %s", code, stderr)
	}
	targets := [][]string{{"--data", filepath.Join(t.TempDir(), "restored")}}
	if os.Getenv("QUIRE_TEST_POSTGRES_URL") != "" {
		targets = append(targets, []string{"--data", filepath.Join(t.TempDir(), "pgdata"), "--database", postgresURL(t)})
	}
	for _, target := range targets {
		if code, _, stderr := runCmd(t, env(nil), append([]string{"restore", archive}, target...)...); code != 0 {
			t.Fatalf("restore %v: %d %s", target, code, stderr)
		}
		r := startServe(t, env(nil), append([]string{"--addr", "127.0.0.1:0", "--secret-key-file", keyFile}, target...)...)
		if lines := tokenLines(r.stderr.String()); len(lines) != 0 {
			t.Errorf("%v: the restored server bootstrapped again", target)
		}
		for _, token := range []string{c.token, created.Token} {
			if code, body := r.get(t, "/v1/user", token); code != 200 || !strings.Contains(body, DefaultAdminEmail) {
				t.Errorf("%v: /v1/user with a token made before the backup = %d %s", target, code, body)
			}
		}
		if code, _ := r.get(t, "/v1/user", c.token+"x"); code != 401 {
			t.Errorf("%v: a wrong token = %d", target, code)
		}
		if code, body := r.get(t, link.RequestURI(), ""); code != 200 || body != string(w.data) {
			t.Errorf("%v: the link made before the backup = %d %q", target, code, body)
		}
		tampered := strings.Replace(link.RequestURI(), "notes", "other", 1)
		if code, _ := r.get(t, tampered, ""); code == 200 {
			t.Errorf("%v: a link changed after signing answered 200", target)
		}
		r.stop(t)
	}
}

// TestBackupAcrossEngines moves a server's data from SQLite to
// PostgreSQL, back to SQLite and to PostgreSQL again: each copy equals
// the one of the same engine before it, down to the search index, the id
// counters and the pending jobs.
func TestBackupAcrossEngines(t *testing.T) {
	pgB, pgE := postgresURL(t), postgresURL(t)
	dirA := filepath.Join(t.TempDir(), "a")
	s := startServe(t, env(nil), "--addr", "127.0.0.1:0", "--data", dirA)
	c, org := adminAPI(t, s, dirA)
	ws := seed(t, c, org)
	// The search index holds the seeded pages once their events ran.
	for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
		res := c.must(t, 200, "GET", "/v1/orgs/"+org+"/search?query=writes", nil)
		if n, _ := res["count"].(float64); int(n) >= len(ws) || time.Now().After(deadline) {
			break
		}
	}
	s.stop(t)
	queuePending(t, store.Config{DataDir: dirA}, ws[0].space)

	backup := func(name string, args ...string) string {
		t.Helper()
		file := filepath.Join(t.TempDir(), name+".tar.gz")
		if code, _, stderr := runCmd(t, env(nil), append(append([]string{"backup"}, args...), file)...); code != 0 {
			t.Fatalf("backup %s: %d %s", name, code, stderr)
		}
		return file
	}
	restore := func(file string, args ...string) {
		t.Helper()
		if code, _, stderr := runCmd(t, env(nil), append(append([]string{"restore"}, args...), file)...); code != 0 {
			t.Fatalf("restore %s: %d %s", file, code, stderr)
		}
	}
	dirB, dirC, dirE := filepath.Join(t.TempDir(), "b"), filepath.Join(t.TempDir(), "c"), filepath.Join(t.TempDir(), "e")
	restore(backup("a", "--data", dirA), "--data", dirB, "--database", pgB)
	restore(backup("b", "--data", dirB, "--database", pgB), "--data", dirC)
	restore(backup("c", "--data", dirC), "--data", dirE, "--database", pgE)

	a, b, cc, e := openSQLite(t, dirA), openPostgres(t, pgB), openSQLite(t, dirC), openPostgres(t, pgE)
	compareAll(t, "sqlite → postgres → sqlite", a, cc, "sqlite")
	compareAll(t, "postgres → sqlite → postgres", b, e, "postgres")
	// Across engines, every column a backup carries agrees.
	for _, name := range tableNames(t, a, "sqlite") {
		if name == "sqlite_sequence" || name == "search_fts" {
			continue
		}
		cols := rowsOf(t, a, "SELECT name FROM pragma_table_info('"+name+"')")
		list := make([]string, len(cols))
		for i, col := range cols {
			list[i] = `"` + strings.TrimSuffix(strings.TrimPrefix(col, `s"`), `"`) + `"`
		}
		query := "SELECT " + strings.Join(list, ", ") + " FROM " + name
		sameRows(t, "sqlite → postgres: "+name, rowsOf(t, a, query), rowsOf(t, b, query))
	}
	// The id counters moved along: PostgreSQL's sequences hand out no id
	// SQLite's counters had handed out.
	for _, r := range rowsOf(t, a, `SELECT name, seq FROM sqlite_sequence
		WHERE name NOT LIKE 'river_%' AND name <> 'goose_db_version' AND seq > 0`) {
		var name string
		var seq int64
		if _, err := fmt.Sscanf(r, "s%q | i%d", &name, &seq); err != nil {
			t.Fatal(err)
		}
		var last int64
		var called bool
		if err := b.QueryRow("SELECT last_value, is_called FROM "+name+"_id_seq").Scan(&last, &called); err != nil {
			t.Fatal(err)
		}
		if called {
			last++
		}
		if last <= seq {
			t.Errorf("the sequence of %s hands out %d next; SQLite had handed out %d", name, last, seq)
		}
	}
	blobsA := blobKeys(t, dirA)
	if len(blobsA) < len(ws) {
		t.Errorf("the source holds %d blobs for %d files", len(blobsA), len(ws))
	}
	for _, dir := range []string{dirB, dirC, dirE} {
		sameRows(t, dir+": blobs", blobsA, blobKeys(t, dir))
	}
	if n := len(rowsOf(t, a, "SELECT 1 FROM search_fts")); n == 0 {
		t.Error("the source's search index is empty: the comparison of indexes proves nothing")
	}
	if n := len(pendingJobs(t, a, "sqlite")); n == 0 {
		t.Error("no job pending in the source")
	}
}

// compareAll compares every table of two databases of one engine, the
// engine's own search index and id counters among them, and their
// pending jobs.
func compareAll(t *testing.T, what string, want, got *sql.DB, engine string) {
	t.Helper()
	names := tableNames(t, want, engine)
	for _, name := range names {
		query := "SELECT * FROM " + name
		if name == "search_fts" {
			query = "SELECT rowid, * FROM search_fts" // the rowid is the section's id
		}
		sameRows(t, what+": "+name, rowsOf(t, want, query), rowsOf(t, got, query))
	}
	// The id counters of the tables (not those of the migrations and the
	// job queue, which the restore makes anew).
	counters := []string{`SELECT name, seq FROM sqlite_sequence WHERE name NOT LIKE 'river_%' AND name <> 'goose_db_version'`}
	if engine == "postgres" {
		counters = nil
		for _, seq := range rowsOf(t, want, `SELECT sequencename FROM pg_sequences
			WHERE sequencename NOT LIKE 'river_%' AND sequencename NOT LIKE 'goose_%'`) {
			name := strings.TrimSuffix(strings.TrimPrefix(seq, `s"`), `"`)
			counters = append(counters, "SELECT '"+name+"', last_value, is_called FROM "+name)
		}
		if len(counters) == 0 {
			t.Error("no sequences to compare")
		}
	}
	for _, q := range counters {
		sameRows(t, what+": "+q, rowsOf(t, want, q), rowsOf(t, got, q))
	}
	sameRows(t, what+": jobs", pendingJobs(t, want, engine), pendingJobs(t, got, engine))
}

// queuePending queues a job for an hour later in the database of cfg, so
// that an archive has a pending job to carry.
func queuePending(t *testing.T, cfg store.Config, space string) {
	t.Helper()
	st, err := store.Open(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	q, err := jobs.New(st.(jobs.Database), jobs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = q.Enqueue(t.Context(), service.ContentJob{Space: space}, quire.JobOptions{Unique: true, Delay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
}

// blobKeys lists the keys of the blobs kept in a data directory, with
// their sizes.
func blobKeys(t *testing.T, dir string) []string {
	t.Helper()
	s, err := blob.Open(t.Context(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var keys []string
	err = s.List(t.Context(), func(key string, size int64) error {
		keys = append(keys, fmt.Sprintf("%s %d", key, size))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestBackupRefusesWrongData checks that a backup pointed at a directory
// where no server keeps its data fails, making nothing: neither the
// directory nor the archive.
func TestBackupRefusesWrongData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "typo")
	file := filepath.Join(t.TempDir(), "backup.tar.gz")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", dir}, "no database to back up in " + dir},
		{[]string{"--data", dir, "--database", "postgres://nobody@127.0.0.1:1/none"}, "no files to back up in " + dir},
		{[]string{"a.tar.gz", "--data", dir}, `unexpected argument`},
	} {
		code, _, stderr := runCmd(t, env(nil), append(append([]string{"backup"}, c.args...), file)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("backup %v: %d %s; want %q", c.args, code, stderr, c.want)
		}
	}
	if code, _, stderr := runCmd(t, env(nil), "backup", "--data", dir); code != 2 || !strings.Contains(stderr, "FILE is required") {
		t.Errorf("backup without a file: %d %s", code, stderr)
	}
	for _, p := range []string{dir, file} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the failed backup left %s: %v", p, err)
		}
	}
}
