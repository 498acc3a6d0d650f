package dump

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Snapshot is a backup's read of a database: one read-only transaction,
// so that every table is read as it was at one moment.
type Snapshot struct {
	eng Engine
	db  *sql.DB
	tx  *sql.Tx
	// version is the schema version; created the moment of the read.
	version int64
	created time.Time
	// tables are the tables carried, in load order, with the carried
	// columns only.
	tables []Table
	next   map[string]int64
	// jobs tells whether the database has the job queue's tables.
	jobs bool
}

// Begin starts a snapshot of db, which it takes over: Close closes it.
func Begin(ctx context.Context, eng Engine, db *sql.DB) (_ *Snapshot, err error) {
	s := &Snapshot{eng: eng, db: db}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Close())
		}
	}()
	if s.tx, err = eng.BeginSnapshot(ctx, db); err != nil {
		return nil, fmt.Errorf("dump: begin the snapshot: %w", err)
	}
	// The first read fixes the snapshot on SQLite.
	all, err := eng.Tables(ctx, s.tx)
	if err != nil {
		return nil, fmt.Errorf("dump: read the catalog: %w", err)
	}
	s.created = time.Now().UTC()
	if s.version, err = schemaVersion(ctx, s.tx, all); err != nil {
		return nil, err
	}
	var unknown []string
	for _, t := range all {
		if t.Name == riverJobTable {
			s.jobs = true
		}
		if skipTable(t.Name) {
			continue
		}
		carried := t
		carried.Columns = nil
		for _, c := range t.Columns {
			switch c.Kind {
			case KindDerived:
				continue
			case "":
				unknown = append(unknown, fmt.Sprintf("%s.%s (%s)", t.Name, c.Name, c.Type))
			}
			carried.Columns = append(carried.Columns, c)
		}
		s.tables = append(s.tables, carried)
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("dump: columns of types a backup cannot carry: %s", strings.Join(unknown, ", "))
	}
	s.tables = loadOrder(s.tables)
	if s.next, err = eng.NextIDs(ctx, s.tx, s.tables); err != nil {
		return nil, fmt.Errorf("dump: read the id sequences: %w", err)
	}
	return s, nil
}

// riverJobTable is the job queue's table of jobs.
const riverJobTable = "river_job"

// skipTable tells the tables a backup leaves out: the migrations' own
// record (an archive names its schema version instead, and a restore
// migrates the target to it), and the job queue's tables (River's; the
// pending jobs are carried apart, through River's driver, see jobs.go).
func skipTable(name string) bool {
	return name == "goose_db_version" || strings.HasPrefix(name, "river_")
}

// schemaVersion reads the migration version of the database.
func schemaVersion(ctx context.Context, q Querier, tables []Table) (int64, error) {
	found := false
	for _, t := range tables {
		found = found || t.Name == "goose_db_version"
	}
	if !found {
		return 0, errors.New("dump: the database has no schema version: it is no Quire database, or was never migrated")
	}
	var v int64
	if err := q.QueryRowContext(ctx, "SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("dump: read the schema version: %w", err)
	}
	return v, nil
}

// SchemaVersion is the migration version of the database read.
func (s *Snapshot) SchemaVersion() int64 { return s.version }

// Query runs a read in the snapshot: what it answers is what the archive
// holds, whatever was written since.
func (s *Snapshot) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return s.tx.QueryContext(ctx, s.eng.Rebind(query), args...)
}

// Close ends the snapshot and closes the database.
func (s *Snapshot) Close() error {
	var err error
	if s.tx != nil {
		if rerr := s.tx.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
			err = rerr
		}
		s.tx = nil
	}
	if s.db != nil {
		err = errors.Join(err, s.db.Close())
		s.db = nil
	}
	return err
}
