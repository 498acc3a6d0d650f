package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"quire/internal/store"
)

// api calls a running server as one token's holder.
type api struct {
	url, token string
}

// call sends a JSON request and decodes the JSON answer; it reports
// instead of failing so that writers on other goroutines can use it.
func (c api) call(ctx context.Context, method, path string, body any) (int, map[string]any, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.url+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	var out map[string]any
	if len(raw) > 0 && json.Unmarshal(raw, &out) != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: %d, not JSON: %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, out, nil
}

// do is call that wants status.
func (c api) do(ctx context.Context, status int, method, path string, body any) (map[string]any, error) {
	code, out, err := c.call(ctx, method, path, body)
	if err != nil {
		return nil, err
	}
	if code != status {
		return nil, fmt.Errorf("%s %s: %d %v, want %d", method, path, code, out, status)
	}
	return out, nil
}

// must is do failing the test.
func (c api) must(t *testing.T, status int, method, path string, body any) map[string]any {
	t.Helper()
	out, err := c.do(t.Context(), status, method, path, body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// field reads a string at a dotted path of a decoded answer.
func field(m map[string]any, path string) string {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(x) {
				return ""
			}
			v = x[i]
		default:
			return ""
		}
	}
	s, _ := v.(string)
	return s
}

// adminAPI returns the client of the bootstrap admin of the server whose
// data directory is dir, and the id of its organization.
func adminAPI(t *testing.T, s *server, dir string) (api, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
	if err != nil {
		t.Fatal(err)
	}
	c := api{url: s.url, token: strings.TrimSpace(string(raw))}
	orgs := c.must(t, 200, "GET", "/v1/orgs", nil)
	org := field(orgs, "items.0.id")
	if org == "" {
		t.Fatalf("no organization: %v", orgs)
	}
	return c, org
}

// written is what one round of writes made.
type written struct {
	space, file, link string
	data              []byte
}

// writeRound makes a space (in parent unless ""), a change request adding
// a page and a file of bytes unique to the round, merges it and comments
// on the space, with a reply: rows in many tables, and a blob.
func writeRound(ctx context.Context, c api, org, parent string, n int) (written, error) {
	var w written
	body := map[string]any{"title": fmt.Sprintf("Space %d", n)}
	if parent != "" {
		body["parent"] = parent
	}
	sp, err := c.do(ctx, 201, "POST", "/v1/orgs/"+org+"/spaces", body)
	if err != nil {
		return w, err
	}
	w.space = field(sp, "id")
	cr, err := c.do(ctx, 201, "POST", "/v1/spaces/"+w.space+"/change-requests", map[string]any{"subject": "Start"})
	if err != nil {
		return w, err
	}
	crPath := "/v1/spaces/" + w.space + "/change-requests/" + field(cr, "id")
	w.data = []byte(fmt.Sprintf("file of round %d: %s", n, strings.Repeat("bytes ", n%7)))
	res, err := c.do(ctx, 200, "POST", crPath+"/content?compat=false", map[string]any{"changes": []any{
		map[string]any{"operation": "insert_page", "title": fmt.Sprintf("Guide %d", n),
			"document": map[string]any{"markdown": fmt.Sprintf("# Start\n\nRound %d of the writes, café.\n\n## More\n\nDetails.", n)}},
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"name": fmt.Sprintf("notes-%d.txt", n), "base64": base64.StdEncoding.EncodeToString(w.data)}}},
	}})
	if err != nil {
		return w, err
	}
	w.file, w.link = field(res, "insertedFiles.0.file.id"), field(res, "insertedFiles.0.file.downloadURL")
	if _, err := c.do(ctx, 200, "POST", crPath+"/merge", nil); err != nil {
		return w, err
	}
	cm, err := c.do(ctx, 200, "POST", "/v1/spaces/"+w.space+"/comments",
		map[string]any{"body": map[string]any{"markdown": fmt.Sprintf("Comment %d", n)}})
	if err != nil {
		return w, err
	}
	_, err = c.do(ctx, 200, "POST", "/v1/spaces/"+w.space+"/comments/"+field(cm, "id")+"/replies",
		map[string]any{"body": map[string]any{"markdown": "A reply"}})
	return w, err
}

// seed writes collections two deep (rows referring to rows of their own
// table) and a few rounds in and out of them.
func seed(t *testing.T, c api, org string) []written {
	t.Helper()
	top := field(c.must(t, 201, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Top"}), "id")
	inner := field(c.must(t, 201, "POST", "/v1/orgs/"+org+"/collections",
		map[string]any{"title": "Inner", "parent": top}), "id")
	var out []written
	for i, parent := range []string{"", inner, top} {
		w, err := writeRound(t.Context(), c, org, parent, 1000+i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, w)
	}
	return out
}

// querier runs a read: a database, or a backup's snapshot.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// snapshotQuerier reads in a snapshot.
type snapshotQuerier struct {
	q func(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// QueryContext implements querier.
func (s snapshotQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return s.q(ctx, query, args...)
}

// rowsOf reads a query's rows as sorted strings, each value written the
// same whichever engine gave it: booleans as the integers SQLite keeps,
// bytes in hex. It is the tests' own reading, apart from the backup's.
func rowsOf(t *testing.T, q querier, query string) []string {
	t.Helper()
	rows, err := q.QueryContext(t.Context(), query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out []string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		var b strings.Builder
		for i, v := range vals {
			if i > 0 {
				b.WriteString(" | ")
			}
			switch x := v.(type) {
			case nil:
				b.WriteString("NULL")
			case bool:
				fmt.Fprintf(&b, "i%d", map[bool]int{false: 0, true: 1}[x])
			case int64:
				fmt.Fprintf(&b, "i%d", x)
			case string:
				fmt.Fprintf(&b, "s%q", x)
			case []byte:
				b.WriteString("b" + hex.EncodeToString(x))
			default:
				fmt.Fprintf(&b, "?%T %v", x, x)
			}
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	slices.Sort(out)
	return out
}

// sameRows fails the test where want and got differ, naming what.
func sameRows(t *testing.T, what string, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	missing, extra := diffRows(want, got), diffRows(got, want)
	t.Errorf("%s: %d rows, want %d; missing %d %q, unexpected %d %q",
		what, len(got), len(want), len(missing), clip(missing), len(extra), clip(extra))
}

// diffRows returns the rows of a not in b (both sorted).
func diffRows(a, b []string) []string {
	var out []string
	for _, r := range a {
		if _, ok := slices.BinarySearch(b, r); !ok {
			out = append(out, r)
		}
	}
	return out
}

// openSQLite opens the SQLite database of a data directory to read it.
func openSQLite(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(dir, store.SQLiteFile)+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openPostgres opens a PostgreSQL database to read it.
func openPostgres(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// tableNames lists the tables of a database that a backup carries as
// rows, and the job queue's apart: on SQLite also the search index and
// the AUTOINCREMENT counters, which a restore makes again.
func tableNames(t *testing.T, db *sql.DB, engine string) []string {
	t.Helper()
	query := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search_fts_%'
		AND name NOT LIKE 'river_%' AND name NOT IN ('goose_db_version', 'sqlite_sequence')`
	if engine == "postgres" {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
			AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'river_%' AND table_name <> 'goose_db_version'`
	}
	var names []string
	for _, r := range rowsOf(t, db, query) {
		var name string
		if _, err := fmt.Sscanf(r, "s%q", &name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// pendingJobs reads the jobs waiting in a database, their arguments as
// normalized JSON.
func pendingJobs(t *testing.T, db *sql.DB, engine string) []string {
	t.Helper()
	args := "args"
	if engine == "sqlite" {
		args = "json(args)" // SQLite's River keeps its binary JSONB
	}
	rows := rowsOf(t, db, `SELECT kind, `+args+`, queue, priority, max_attempts, attempt, unique_key, state FROM river_job
		WHERE state NOT IN ('completed', 'cancelled', 'discarded')`)
	for i, r := range rows {
		// Arguments come as SQLite's bytes or PostgreSQL's jsonb text.
		parts := strings.Split(r, " | ")
		var raw []byte
		if s, ok := strings.CutPrefix(parts[1], "b"); ok {
			raw, _ = hex.DecodeString(s)
		} else {
			var text string
			fmt.Sscanf(parts[1], "s%q", &text)
			raw = []byte(text)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("job arguments %q: %v", raw, err)
		}
		norm, _ := json.Marshal(v)
		parts[1] = string(norm)
		rows[i] = strings.Join(parts, " | ")
	}
	slices.Sort(rows)
	return rows
}

// clip shortens each row to 200 bytes, for messages.
func clip(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		if len(r) > 200 {
			r = r[:200] + "…"
		}
		out[i] = r
	}
	return out
}
