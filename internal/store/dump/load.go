package dump

import (
	"archive/tar"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxParams bounds the placeholders of one insert statement, well under
// either engine's limit.
const maxParams = 2000

// Load loads the archive into db, a database of eng at the archive's
// schema version holding no rows, and its blobs into blobs (nil to leave
// them out). Every row and job goes in one transaction, which commits
// only once each table's rows, read back, match the manifest's count and
// checksum: a failed load leaves the database without rows. Blobs are
// stored as they come, before the commit; fold rebuilds the search
// index.
func (a *Archive) Load(ctx context.Context, eng Engine, db *sql.DB, blobs Blobs, fold Fold) (err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("dump: begin: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	end, err := eng.BeginLoad(ctx, tx)
	if err != nil {
		return fmt.Errorf("dump: prepare the load: %w", err)
	}
	targets, err := a.targetTables(ctx, eng, tx)
	if err != nil {
		return err
	}
	l := &loader{eng: eng, tx: tx, fold: fold, targets: targets}
	defer l.close()
	err = walk(a.Path, func(name entryName, hdr *tar.Header, r io.Reader) error {
		switch name.kind {
		case entryTable:
			data, err := readEntry(hdr, r)
			if err != nil {
				return err
			}
			return l.tableChunk(ctx, a.Manifest.table(name.table), data)
		case entryJobs:
			data, err := readEntry(hdr, r)
			if err != nil {
				return err
			}
			return l.jobsChunk(ctx, data)
		case entryBlob:
			if blobs == nil {
				return nil
			}
			key, _, err := blobs.Put(ctx, r, hdr.Size)
			if err != nil {
				return fmt.Errorf("store blob %s: %w", name.key, err)
			}
			if key != name.key {
				return fmt.Errorf("blob %s was stored as %s", name.key, key)
			}
		}
		return nil
	})
	if err == nil {
		err = l.flush(ctx)
	}
	if err != nil {
		return fmt.Errorf("dump: load %s (nothing was loaded): %w", a.Path, err)
	}
	var loaded []Table
	next := map[string]int64{}
	for _, e := range a.Manifest.Tables {
		loaded = append(loaded, targets[e.Name].table)
		if e.NextID != 0 {
			next[e.Name] = e.NextID
		}
	}
	if err := eng.AfterLoad(ctx, tx, loaded, next, fold); err != nil {
		return fmt.Errorf("dump: after the load (nothing was loaded): %w", err)
	}
	if err := end(ctx); err != nil {
		return fmt.Errorf("dump: after the load (nothing was loaded): %w", err)
	}
	if err := a.verify(ctx, eng, tx, targets); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("dump: commit (nothing was loaded): %w", err)
	}
	return nil
}

// target is a table of the archive as the target database has it.
type target struct {
	table Table
	// entry is the archive's entry; kinds the target's kind of each of
	// its columns.
	entry *TableEntry
	kinds []Kind
}

// targetTables matches every table of the archive with the target's.
func (a *Archive) targetTables(ctx context.Context, eng Engine, q Querier) (map[string]*target, error) {
	tables, err := eng.Tables(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("dump: read the target's catalog: %w", err)
	}
	byName := map[string]Table{}
	for _, t := range tables {
		byName[t.Name] = t
	}
	out := map[string]*target{}
	for i := range a.Manifest.Tables {
		e := &a.Manifest.Tables[i]
		t, ok := byName[e.Name]
		if !ok {
			return nil, fmt.Errorf("dump: table %s of the archive is not in the target database (schema version %d)",
				e.Name, a.Manifest.SchemaVersion)
		}
		tg := &target{table: t, entry: e}
		for _, c := range e.Columns {
			var kind Kind
			for _, tc := range t.Columns {
				if tc.Name == c.Name {
					kind = tc.Kind
				}
			}
			if kind == "" || kind == KindDerived {
				return nil, fmt.Errorf("dump: column %s.%s of the archive is not one the target database takes", e.Name, c.Name)
			}
			if !convertible(c.Kind, kind) {
				return nil, fmt.Errorf("dump: column %s.%s: cannot load %s values into a %s column", e.Name, c.Name, c.Kind, kind)
			}
			tg.kinds = append(tg.kinds, kind)
		}
		out[e.Name] = tg
	}
	return out, nil
}

// convertible tells whether values of kind from load into a column of
// kind to.
func convertible(from, to Kind) bool {
	return from == to || (from == KindInt && to == KindBool) || (from == KindBool && to == KindInt)
}

// loader inserts the rows of one table after another in batches.
type loader struct {
	eng     Engine
	tx      *sql.Tx
	fold    Fold
	targets map[string]*target
	// cur is the table being loaded, rows its rows not yet inserted.
	cur  *target
	rows [][]any
	// stmt inserts a full batch of cur; batch is its row count.
	stmt  *sql.Stmt
	batch int
	// derived are the derived columns of cur.
	derivedNames, derivedExprs []string
	derivedArgs                func([]any) []any
	jobs                       []jobRecord
}

// tableChunk adds the rows of one chunk of table e.
func (l *loader) tableChunk(ctx context.Context, e *TableEntry, data []byte) error {
	if e == nil {
		return errors.New("rows of a table not in the manifest")
	}
	if l.cur == nil || l.cur.entry != e {
		if err := l.flush(ctx); err != nil {
			return err
		}
		l.start(e)
	}
	n := 0
	return eachLine(data, func(line []byte) error {
		n++
		row, err := decodeRow(line, e.Columns)
		if err != nil {
			return fmt.Errorf("table %s: row %d of the chunk: %w", e.Name, n, err)
		}
		for i, c := range e.Columns {
			if row[i], err = convert(row[i], c.Kind, l.cur.kinds[i]); err != nil {
				return fmt.Errorf("table %s, column %s: %w", e.Name, c.Name, err)
			}
		}
		l.rows = append(l.rows, row)
		if len(l.rows) >= l.batch {
			return l.insert(ctx, false)
		}
		return nil
	})
}

// start makes e the table being loaded.
func (l *loader) start(e *TableEntry) {
	l.cur = l.targets[e.Name]
	names := make([]string, len(e.Columns))
	for i, c := range e.Columns {
		names[i] = c.Name
	}
	l.derivedNames, l.derivedExprs, l.derivedArgs = l.eng.Derived(e.Name, names, l.fold)
	perRow := len(e.Columns) + strings.Count(strings.Join(l.derivedExprs, ""), "?")
	l.batch = max(1, min(500, maxParams/max(perRow, 1)))
}

// statement returns the insert of n rows of the current table.
func (l *loader) statement(n int) string {
	e := l.cur.entry
	cols := columnList(e.Columns)
	for _, d := range l.derivedNames {
		cols += ", " + quote(d)
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(e.Columns)), ", ")
	for _, x := range l.derivedExprs {
		one += ", " + x
	}
	one += ")"
	values := strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
	return l.eng.Rebind("INSERT INTO " + quote(e.Name) + " (" + cols + ") VALUES " + values)
}

// insert inserts the rows gathered: a full batch through the prepared
// statement, or (last) whatever is left.
func (l *loader) insert(ctx context.Context, last bool) error {
	if len(l.rows) == 0 {
		return nil
	}
	var args []any
	for _, row := range l.rows {
		args = append(args, row...)
		if l.derivedArgs != nil {
			args = append(args, l.derivedArgs(row)...)
		}
	}
	var err error
	if !last || len(l.rows) == l.batch {
		if l.stmt == nil {
			if l.stmt, err = l.tx.PrepareContext(ctx, l.statement(l.batch)); err != nil {
				return fmt.Errorf("table %s: %w", l.cur.entry.Name, err)
			}
		}
		_, err = l.stmt.ExecContext(ctx, args...)
	} else {
		_, err = l.tx.ExecContext(ctx, l.statement(len(l.rows)), args...)
	}
	if err != nil {
		return fmt.Errorf("table %s: insert: %w", l.cur.entry.Name, err)
	}
	l.rows = l.rows[:0]
	return nil
}

// flush inserts what is gathered of the current table and the jobs.
func (l *loader) flush(ctx context.Context) error {
	if l.cur != nil {
		if err := l.insert(ctx, true); err != nil {
			return err
		}
	}
	l.close()
	l.cur = nil
	if len(l.jobs) > 0 {
		if err := insertJobs(ctx, l.eng, l.tx, l.jobs); err != nil {
			return err
		}
		l.jobs = nil
	}
	return nil
}

// close closes the prepared statement.
func (l *loader) close() {
	if l.stmt != nil {
		_ = l.stmt.Close()
		l.stmt = nil
	}
}

// jobsChunk queues the jobs of one chunk.
func (l *loader) jobsChunk(ctx context.Context, data []byte) error {
	if err := l.flush(ctx); err != nil {
		return err
	}
	return eachLine(data, func(line []byte) error {
		var r jobRecord
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("a job: %w", err)
		}
		if r.Kind == "" || !json.Valid(r.Args) {
			return errors.New("a job without kind or arguments")
		}
		l.jobs = append(l.jobs, r)
		if len(l.jobs) >= jobPage {
			return l.flush(ctx)
		}
		return nil
	})
}

// verify reads every table back in tx and checks it against the
// manifest, and counts the jobs.
func (a *Archive) verify(ctx context.Context, eng Engine, tx *sql.Tx, targets map[string]*target) error {
	for _, e := range a.Manifest.Tables {
		var s summer
		var line bytes.Buffer
		err := scanTable(ctx, tx, targets[e.Name].table, e.Columns, func(row []any) error {
			line.Reset()
			if err := encodeRow(&line, row); err != nil {
				return err
			}
			s.add(line.Bytes())
			return nil
		})
		if err != nil {
			return fmt.Errorf("dump: verify (nothing was loaded): %w", err)
		}
		if got := s.sum(); got != e.Sum {
			return fmt.Errorf("dump: verify (nothing was loaded): table %s holds %d rows with checksum %s after the load; the archive %d, %s",
				e.Name, got.Rows, got.SHA256, e.Rows, e.SHA256)
		}
	}
	if a.Manifest.Jobs.Rows > 0 {
		var n int64
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM "+riverJobTable).Scan(&n); err != nil {
			return fmt.Errorf("dump: verify (nothing was loaded): count the jobs: %w", err)
		}
		if n != a.Manifest.Jobs.Rows {
			return fmt.Errorf("dump: verify (nothing was loaded): %d jobs queued; the archive holds %d", n, a.Manifest.Jobs.Rows)
		}
	}
	return nil
}
