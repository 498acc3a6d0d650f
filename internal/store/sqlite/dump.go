package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"quire/internal/store/dump"
	"quire/internal/store/sqlstore"
)

// OpenBackupSource opens the database at path for a backup: read-only, on
// one connection, leaving its schema as it is. A missing file is an
// error, not a new database.
func OpenBackupSource(ctx context.Context, path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("sqlite: no database to back up: %w", err)
	}
	name, err := dsn(path, true)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: open %s: %w", path, err), db.Close())
	}
	return db, nil
}

// OpenRestoreTarget opens the database at path for a restore, on the one
// writer connection, and tells whether the file was made now.
func OpenRestoreTarget(ctx context.Context, path string) (db *sql.DB, created bool, err error) {
	_, statErr := os.Stat(path)
	db, err = openWriter(ctx, path)
	return db, errors.Is(statErr, os.ErrNotExist), err
}

// MigrateRestoreTarget applies the migrations up to version
// (math.MaxInt64 for every one) to the database db opened by
// OpenRestoreTarget, and returns the schema version before and after.
func MigrateRestoreTarget(ctx context.Context, db *sql.DB, version int64) (from, to int64, err error) {
	return migrateTo(ctx, db, version)
}

// DumpEngine is SQLite's part of a backup and a restore.
type DumpEngine struct{}

var _ dump.Engine = DumpEngine{}

// Name implements dump.Engine.
func (DumpEngine) Name() string { return "sqlite" }

// Rebind implements dump.Engine: SQLite takes ? placeholders.
func (DumpEngine) Rebind(query string) string { return query }

// BeginSnapshot implements dump.Engine: a read transaction sees the
// write-ahead log as it was at its first read, while writers go on.
func (DumpEngine) BeginSnapshot(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	return db.BeginTx(ctx, nil)
}

// Tables implements dump.Engine. SQLite's own tables, virtual tables (the
// search index) and their shadow tables are left out.
func (DumpEngine) Tables(ctx context.Context, q dump.Querier) ([]dump.Table, error) {
	type entry struct{ name, sql string }
	var entries []entry
	rows, err := q.QueryContext(ctx, "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var e entry
		var text sql.NullString
		if err := rows.Scan(&e.name, &text); err != nil {
			rows.Close()
			return nil, err
		}
		e.sql = text.String
		entries = append(entries, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var virtual []string
	for _, e := range entries {
		if strings.HasPrefix(strings.ToUpper(e.sql), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, e.name)
		}
	}
	var out []dump.Table
	for _, e := range entries {
		if strings.HasPrefix(e.name, "sqlite_") || slices.ContainsFunc(virtual, func(v string) bool {
			return e.name == v || strings.HasPrefix(e.name, v+"_")
		}) {
			continue
		}
		t, err := describe(ctx, q, e.name)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// describe reads the columns, primary key and foreign keys of a table.
func describe(ctx context.Context, q dump.Querier, name string) (dump.Table, error) {
	t := dump.Table{Name: name}
	rows, err := q.QueryContext(ctx, "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", name)
	if err != nil {
		return t, err
	}
	var keys []string
	var keyPos []int
	for rows.Next() {
		var c dump.Column
		var pk int
		if err := rows.Scan(&c.Name, &c.Type, &pk); err != nil {
			rows.Close()
			return t, err
		}
		c.Kind = kindOf(c.Type)
		t.Columns = append(t.Columns, c)
		if pk > 0 {
			keys = append(keys, c.Name)
			keyPos = append(keyPos, pk)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return t, err
	}
	t.Key = make([]string, len(keys))
	for i, k := range keys {
		t.Key[keyPos[i]-1] = k
	}
	rows, err = q.QueryContext(ctx, `SELECT "table", "from", "to" FROM pragma_foreign_key_list(?)`, name)
	if err != nil {
		return t, err
	}
	defer rows.Close()
	for rows.Next() {
		var ref, from string
		var to sql.NullString
		if err := rows.Scan(&ref, &from, &to); err != nil {
			return t, err
		}
		switch {
		case ref != name:
			if !slices.Contains(t.Refs, ref) {
				t.Refs = append(t.Refs, ref)
			}
		case to.Valid:
			t.SelfRefs = append(t.SelfRefs, dump.SelfRef{Column: from, Ref: to.String})
		case len(t.Key) == 1:
			t.SelfRefs = append(t.SelfRefs, dump.SelfRef{Column: from, Ref: t.Key[0]})
		}
	}
	return t, rows.Err()
}

// kindOf maps a declared column type to its kind: the types Quire's
// migrations declare, and nothing else.
func kindOf(declared string) dump.Kind {
	switch strings.ToUpper(declared) {
	case "TEXT":
		return dump.KindText
	case "INTEGER", "BIGINT", "SMALLINT", "INT":
		return dump.KindInt
	case "BOOLEAN":
		return dump.KindBool
	case "BLOB":
		return dump.KindBytes
	}
	return ""
}

// NextIDs implements dump.Engine: the counters of the AUTOINCREMENT
// tables, which never hand out an id twice.
func (DumpEngine) NextIDs(ctx context.Context, q dump.Querier, tables []dump.Table) (map[string]int64, error) {
	next := map[string]int64{}
	var n int
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'").Scan(&n); err != nil || n == 0 {
		return next, err
	}
	rows, err := q.QueryContext(ctx, "SELECT name, seq FROM sqlite_sequence")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var seq int64
		if err := rows.Scan(&name, &seq); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(tables, func(t dump.Table) bool { return t.Name == name }) {
			next[name] = seq + 1
		}
	}
	return next, rows.Err()
}

// Jobs implements dump.Engine.
func (DumpEngine) Jobs(tx *sql.Tx) riverdriver.ExecutorTx {
	return riversqlite.New(nil).UnwrapExecutor(tx)
}

// InsertJob implements dump.Engine.
func (DumpEngine) InsertJob(ctx context.Context, tx *sql.Tx, job *riverdriver.JobInsertFullParams) error {
	_, err := riversqlite.New(nil).UnwrapExecutor(tx).JobInsertFull(ctx, job)
	return err
}

// BeginLoad implements dump.Engine. SQLite cannot turn triggers off, so
// they are dropped and made again from their own text, all inside the
// transaction; foreign keys are checked at the commit.
func (DumpEngine) BeginLoad(ctx context.Context, tx *sql.Tx) (func(context.Context) error, error) {
	if _, err := tx.ExecContext(ctx, "PRAGMA defer_foreign_keys = ON"); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
	if err != nil {
		return nil, err
	}
	var names, texts []string
	for rows.Next() {
		var name, text string
		if err := rows.Scan(&name, &text); err != nil {
			rows.Close()
			return nil, err
		}
		names, texts = append(names, name), append(texts, text)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, name := range names {
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER "`+strings.ReplaceAll(name, `"`, `""`)+`"`); err != nil {
			return nil, fmt.Errorf("drop trigger %s: %w", name, err)
		}
	}
	return func(ctx context.Context) error {
		for i, text := range texts {
			if _, err := tx.ExecContext(ctx, text); err != nil {
				return fmt.Errorf("make trigger %s again: %w", names[i], err)
			}
		}
		// The commit would fail on a dangling reference without naming
		// it; the check names the first.
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		err := tx.QueryRowContext(ctx, "PRAGMA foreign_key_check").Scan(&table, &rowid, &parent, &fk)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err != nil:
			return fmt.Errorf("check the foreign keys: %w", err)
		}
		return fmt.Errorf("rows of table %s refer to rows of %s that are not there", table, parent)
	}, nil
}

// Derived implements dump.Engine: SQLite derives no columns.
func (DumpEngine) Derived(string, []string, dump.Fold) ([]string, []string, func([]any) []any) {
	return nil, nil, nil
}

// searchPage is how many search sections AfterLoad indexes at a time.
const searchPage = 1000

// AfterLoad implements dump.Engine: the search index gets an entry per
// section, made as the store makes it, and the AUTOINCREMENT counters
// move up to what the archive's source had handed out.
func (DumpEngine) AfterLoad(ctx context.Context, tx *sql.Tx, tables []dump.Table, next map[string]int64, fold dump.Fold) error {
	if slices.ContainsFunc(tables, func(t dump.Table) bool { return t.Name == "search_sections" }) {
		if err := indexSections(ctx, tx, fold); err != nil {
			return err
		}
	}
	for _, t := range tables {
		n, ok := next[t.Name]
		if !ok {
			continue
		}
		var auto int
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?
			AND sql LIKE '%AUTOINCREMENT%'`, t.Name).Scan(&auto)
		if err != nil {
			return err
		}
		if auto == 0 {
			continue
		}
		res, err := tx.ExecContext(ctx, "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", n-1, t.Name)
		if err != nil {
			return fmt.Errorf("id counter of %s: %w", t.Name, err)
		}
		// A counter at 0 is no counter: SQLite makes it with the first id.
		if k, _ := res.RowsAffected(); k == 0 && n > 1 {
			if _, err := tx.ExecContext(ctx, "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", t.Name, n-1); err != nil {
				return fmt.Errorf("id counter of %s: %w", t.Name, err)
			}
		}
	}
	return nil
}

// indexSections adds the search index entry of every section.
func indexSections(ctx context.Context, tx *sql.Tx, fold dump.Fold) error {
	if fold == nil {
		return errors.New("the search index needs the folding of its text")
	}
	type section struct {
		id                 int64
		space, title, body string
	}
	var after int64
	for {
		rows, err := tx.QueryContext(ctx, `SELECT id, space_id, title, body FROM search_sections
			WHERE id > ? ORDER BY id LIMIT ?`, after, searchPage)
		if err != nil {
			return err
		}
		var page []section
		for rows.Next() {
			var s section
			if err := rows.Scan(&s.id, &s.space, &s.title, &s.body); err != nil {
				rows.Close()
				return err
			}
			page = append(page, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, s := range page {
			if _, err := tx.ExecContext(ctx, sqlstore.SearchFTSInsert, s.id, s.space, fold(s.title), fold(s.body)); err != nil {
				return fmt.Errorf("search index: %w", err)
			}
			after = s.id
		}
		if len(page) < searchPage {
			return nil
		}
	}
}
