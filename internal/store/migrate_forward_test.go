package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"testing"

	"quire/internal/store"
	"quire/internal/store/dump"
	"quire/internal/store/postgres"
	"quire/internal/store/sqlite"
)

// checked are the values a CHECK constraint admits, by column, for the
// columns that have one.
var checked = map[string]map[string]string{
	"team_members":           {"role": "member"},
	"grants":                 {"target_kind": "space", "principal_kind": "user"},
	"change_requests":        {"status": "open"},
	"comments":               {"status": "open"},
	"change_request_reviews": {"status": "approved"},
}

// rowsPerTable is how many rows each table gets before migrating on.
const rowsPerTable = 3

// TestMigrationsForwardWithData stops a database at every earlier schema
// version, fills every table that version has (the job queue's own tables
// aside, which River migrates), and migrates it to the newest version:
// every migration must run on tables holding rows, and every row and every
// value of the columns that version had must come through unchanged.
func TestMigrationsForwardWithData(t *testing.T) {
	ctx := context.Background()
	for name, config := range engines() {
		t.Run(name, func(t *testing.T) {
			all, err := store.PlanMigrations(ctx, config(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range all.Pending[:len(all.Pending)-1] {
				t.Run(fmt.Sprintf("from_%d_%s", m.Version, m.Name), func(t *testing.T) {
					c := config(t)
					if _, _, err := store.MigrateTo(ctx, c, m.Version); err != nil {
						t.Fatal(err)
					}
					db := rawDB(t, c)
					var eng dump.Engine = sqlite.DumpEngine{}
					if c.DatabaseURL != "" {
						eng = postgres.DumpEngine{}
					}
					tables, err := eng.Tables(ctx, db)
					if err != nil {
						t.Fatal(err)
					}
					fill(t, db, eng, tables)
					before := map[string][]string{}
					for _, tb := range tables {
						if ours(tb) {
							before[tb.Name] = tableRows(t, db, tb.Name, tb.Columns)
						}
					}
					if _, to, err := store.Migrate(ctx, c); err != nil || to != all.To {
						t.Fatalf("migrate from %d: to %d, %v", m.Version, to, err)
					}
					after, err := eng.Tables(ctx, db)
					if err != nil {
						t.Fatal(err)
					}
					kept := map[string]bool{}
					for _, tb := range after {
						kept[tb.Name] = true
					}
					for _, tb := range tables {
						if !ours(tb) {
							continue
						}
						if !kept[tb.Name] {
							t.Errorf("table %s is gone", tb.Name)
							continue
						}
						got := tableRows(t, db, tb.Name, tb.Columns)
						if strings.Join(got, "\n") != strings.Join(before[tb.Name], "\n") {
							t.Errorf("table %s changed:\nbefore %q\nafter  %q", tb.Name, before[tb.Name], got)
						}
					}
				})
			}
		})
	}
}

// ours says whether a table is one of the store's, not the job queue's.
func ours(tb dump.Table) bool {
	return !strings.HasPrefix(tb.Name, "river_") && tb.Name != "goose_db_version"
}

// fill writes rowsPerTable rows into each of the store's tables, every
// value distinct, with foreign keys unchecked: what a migration meets is
// rows, not a consistent organization.
func fill(t *testing.T, db *sql.DB, eng dump.Engine, tables []dump.Table) {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	off, on := "PRAGMA foreign_keys = OFF", "PRAGMA foreign_keys = ON"
	if eng.Name() == "postgres" {
		off, on = "SET session_replication_role = replica", "SET session_replication_role = DEFAULT"
	}
	if _, err := conn.ExecContext(ctx, off); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = conn.ExecContext(ctx, on) }()
	for _, tb := range tables {
		if !ours(tb) {
			continue
		}
		var names, marks []string
		for _, col := range tb.Columns {
			names = append(names, `"`+col.Name+`"`)
			if col.Kind == dump.KindDerived {
				// With triggers off, nobody computes it: an empty one
				// (a search vector of no words).
				marks = append(marks, "''")
			} else {
				marks = append(marks, "?")
			}
		}
		stmt := eng.Rebind(fmt.Sprintf("INSERT INTO %q (%s) VALUES (%s)", tb.Name,
			strings.Join(names, ", "), strings.Join(marks, ", ")))
		for i := range rowsPerTable {
			var args []any
			for j, col := range tb.Columns {
				if col.Kind == dump.KindDerived {
					continue
				}
				args = append(args, sampleValue(tb.Name, col, i*100+j+1))
			}
			if _, err := conn.ExecContext(ctx, stmt, args...); err != nil {
				t.Fatalf("fill %s: %v", tb.Name, err)
			}
		}
	}
}

// sampleValue is the value of column col in the row numbered n: distinct
// in every row, and one the column's constraint admits.
func sampleValue(table string, col dump.Column, n int) any {
	if v, ok := checked[table][col.Name]; ok {
		return v
	}
	switch col.Kind {
	case dump.KindInt:
		return int64(n)
	case dump.KindBool:
		return n%2 == 0
	case dump.KindBytes:
		return []byte(fmt.Sprintf("%s-%d", col.Name, n))
	}
	return fmt.Sprintf("%s-%d", col.Name, n)
}

// tableRows reads the given columns of every row of a table, each row as
// one line, sorted.
func tableRows(t *testing.T, db *sql.DB, table string, cols []dump.Column) []string {
	t.Helper()
	var names []string
	for _, col := range cols {
		if col.Kind != dump.KindDerived {
			names = append(names, `"`+col.Name+`"`)
		}
	}
	rows, err := db.Query(fmt.Sprintf("SELECT %s FROM %q", strings.Join(names, ", "), table))
	if err != nil {
		t.Fatalf("read %s: %v", table, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		line := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			line[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(line, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
