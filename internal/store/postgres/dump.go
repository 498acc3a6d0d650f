package postgres

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

	"quire/internal/store/dump"
	"quire/internal/store/sqlstore"
)

// OpenBackup connects to the database at url for a backup or a restore,
// leaving its schema as it is.
func OpenBackup(ctx context.Context, url string) (*sql.DB, error) {
	return connect(ctx, url)
}

// MigrateRestoreTarget applies the migrations up to version
// (math.MaxInt64 for every one) to the database db opened by OpenBackup,
// under the migrations' lock, and returns the schema version before and
// after.
func MigrateRestoreTarget(ctx context.Context, db *sql.DB, version int64) (from, to int64, err error) {
	return migrateTo(ctx, db, version)
}

// DumpEngine is PostgreSQL's part of a backup and a restore, on the
// tables of the connection's current schema.
type DumpEngine struct{}

var _ dump.Engine = DumpEngine{}

// Name implements dump.Engine.
func (DumpEngine) Name() string { return "postgres" }

// Rebind implements dump.Engine.
func (DumpEngine) Rebind(query string) string { return sqlstore.RebindDollar(query) }

// BeginSnapshot implements dump.Engine: one REPEATABLE READ transaction
// reads every table in the same snapshot.
func (DumpEngine) BeginSnapshot(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	return db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
}

// Tables implements dump.Engine.
func (DumpEngine) Tables(ctx context.Context, q dump.Querier) ([]dump.Table, error) {
	var out []dump.Table
	index := map[string]int{}
	rows, err := q.QueryContext(ctx, `SELECT c.table_name, c.column_name, c.data_type
		FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
		ORDER BY c.table_name, c.ordinal_position`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var table string
		var c dump.Column
		if err := rows.Scan(&table, &c.Name, &c.Type); err != nil {
			rows.Close()
			return nil, err
		}
		c.Kind = kindOf(c.Type)
		i, ok := index[table]
		if !ok {
			i = len(out)
			index[table] = i
			out = append(out, dump.Table{Name: table})
		}
		out[i].Columns = append(out[i].Columns, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = q.QueryContext(ctx, `SELECT k.table_name, k.column_name
		FROM information_schema.table_constraints c
		JOIN information_schema.key_column_usage k ON k.constraint_schema = c.constraint_schema
			AND k.constraint_name = c.constraint_name AND k.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY'
		ORDER BY k.table_name, k.ordinal_position`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			rows.Close()
			return nil, err
		}
		if i, ok := index[table]; ok {
			out[i].Key = append(out[i].Key, column)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = q.QueryContext(ctx, `SELECT cl.relname, ref.relname, a.attname, ra.attname
		FROM pg_constraint co
		JOIN pg_class cl ON cl.oid = co.conrelid
		JOIN pg_class ref ON ref.oid = co.confrelid
		CROSS JOIN LATERAL unnest(co.conkey, co.confkey) AS k(col, refcol)
		JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.col
		JOIN pg_attribute ra ON ra.attrelid = co.confrelid AND ra.attnum = k.refcol
		WHERE co.contype = 'f' AND cl.relnamespace = current_schema()::regnamespace
		ORDER BY cl.relname, co.conname`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var table, ref, col, refCol string
		if err := rows.Scan(&table, &ref, &col, &refCol); err != nil {
			return nil, err
		}
		i, ok := index[table]
		switch {
		case !ok:
		case ref == table:
			out[i].SelfRefs = append(out[i].SelfRefs, dump.SelfRef{Column: col, Ref: refCol})
		case !slices.Contains(out[i].Refs, ref):
			out[i].Refs = append(out[i].Refs, ref)
		}
	}
	return out, rows.Err()
}

// kindOf maps a column's data type to its kind. The search vectors are
// derived from the sections' text, and made again on load.
func kindOf(dataType string) dump.Kind {
	switch dataType {
	case "text", "character varying", "character":
		return dump.KindText
	case "bigint", "integer", "smallint":
		return dump.KindInt
	case "boolean":
		return dump.KindBool
	case "bytea":
		return dump.KindBytes
	case "tsvector":
		return dump.KindDerived
	}
	return ""
}

// sequence is an id sequence: the table and column it numbers, and its
// name as a qualified, quoted identifier.
type sequence struct{ table, column, name string }

// sequences lists the sequences owned by columns of the tables.
func sequences(ctx context.Context, q dump.Querier, tables []dump.Table) ([]sequence, error) {
	rows, err := q.QueryContext(ctx, `SELECT table_name, column_name, seq FROM (
			SELECT table_name, column_name, ordinal_position,
				pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) AS seq
			FROM information_schema.columns WHERE table_schema = current_schema()) s
		WHERE seq IS NOT NULL ORDER BY table_name, ordinal_position`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sequence
	for rows.Next() {
		var s sequence
		if err := rows.Scan(&s.table, &s.column, &s.name); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(tables, func(t dump.Table) bool { return t.Name == s.table }) &&
			!slices.ContainsFunc(out, func(o sequence) bool { return o.table == s.table }) {
			out = append(out, s)
		}
	}
	return out, rows.Err()
}

// NextIDs implements dump.Engine: the next value of each table's id
// sequence, which may be past the largest id left.
func (DumpEngine) NextIDs(ctx context.Context, q dump.Querier, tables []dump.Table) (map[string]int64, error) {
	seqs, err := sequences(ctx, q, tables)
	if err != nil {
		return nil, err
	}
	next := map[string]int64{}
	for _, s := range seqs {
		var last int64
		var called bool
		// s.name comes from pg_get_serial_sequence, quoted.
		if err := q.QueryRowContext(ctx, "SELECT last_value, is_called FROM "+s.name).Scan(&last, &called); err != nil {
			return nil, fmt.Errorf("sequence of %s: %w", s.table, err)
		}
		if called {
			last++
		}
		next[s.table] = last
	}
	return next, nil
}

// Jobs implements dump.Engine.
func (DumpEngine) Jobs(tx *sql.Tx) riverdriver.ExecutorTx {
	return riverdatabasesql.New(nil).UnwrapExecutor(tx)
}

// InsertJob implements dump.Engine. River's database/sql driver sends
// the unique key as text cast to bytea, which would mangle its bytes; in
// bytea's hex input form they go through whole.
func (DumpEngine) InsertJob(ctx context.Context, tx *sql.Tx, job *riverdriver.JobInsertFullParams) error {
	j := *job
	if len(j.UniqueKey) > 0 {
		j.UniqueKey = []byte(`\x` + hex.EncodeToString(j.UniqueKey))
	}
	_, err := riverdatabasesql.New(nil).UnwrapExecutor(tx).JobInsertFull(ctx, &j)
	return err
}

// BeginLoad implements dump.Engine: the tables' own triggers are off
// until the end of the load (which the owner of the tables may do without
// being a superuser). Foreign keys are checked row by row: the archive
// holds a table after the tables it refers to.
func (DumpEngine) BeginLoad(ctx context.Context, tx *sql.Tx) (func(context.Context) error, error) {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT quote_ident(c.relname) FROM pg_trigger t
		JOIN pg_class c ON c.oid = t.tgrelid
		WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	toggle := func(ctx context.Context, how string) error {
		for _, t := range tables {
			if _, err := tx.ExecContext(ctx, "ALTER TABLE "+t+" "+how+" TRIGGER USER"); err != nil {
				return fmt.Errorf("%s the triggers of %s: %w", how, t, err)
			}
		}
		return nil
	}
	if err := toggle(ctx, "DISABLE"); err != nil {
		return nil, err
	}
	return func(ctx context.Context) error { return toggle(ctx, "ENABLE") }, nil
}

// Derived implements dump.Engine: a search section's vectors, made from
// its folded title and body as the store makes them.
func (DumpEngine) Derived(table string, columns []string, fold dump.Fold) ([]string, []string, func([]any) []any) {
	title, body := slices.Index(columns, "title"), slices.Index(columns, "body")
	if table != "search_sections" || title < 0 || body < 0 || fold == nil {
		return nil, nil, nil
	}
	text := func(v any) string {
		s, _ := v.(string)
		return fold(s)
	}
	return []string{"doc", "title_doc"}, []string{sqlstore.SearchDocSQL, sqlstore.SearchTitleDocSQL},
		func(row []any) []any {
			t := text(row[title])
			return []any{t, text(row[body]), t}
		}
}

// AfterLoad implements dump.Engine: every id sequence moves past the ids
// loaded, and at least to where the archive's source had got.
func (DumpEngine) AfterLoad(ctx context.Context, tx *sql.Tx, tables []dump.Table, next map[string]int64, _ dump.Fold) error {
	seqs, err := sequences(ctx, tx, tables)
	if err != nil {
		return err
	}
	for _, s := range seqs {
		n := max(next[s.table], 1)
		_, err := tx.ExecContext(ctx, `SELECT setval($1::regclass, GREATEST((SELECT COALESCE(MAX(`+quoteIdent(s.column)+`), 0) FROM `+
			quoteIdent(s.table)+`) + 1, $2), false)`, s.name, n)
		if err != nil {
			return fmt.Errorf("id sequence of %s: %w", s.table, err)
		}
	}
	return nil
}

// quoteIdent quotes an identifier.
func quoteIdent(name string) string {
	return pgx.Identifier{name}.Sanitize()
}
