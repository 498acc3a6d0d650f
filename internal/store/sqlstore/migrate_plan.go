package sqlstore

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/pressly/goose/v3"

	"quire/internal/quire"
)

// versionTable is the table in which goose records applied migrations.
const versionTable = "goose_db_version"

// PendingMigration is a migration a database has not had yet.
type PendingMigration struct {
	// Version is the migration's number.
	Version int64 `json:"version"`
	// Name is its file's name without the number and extension
	// ("git_sync_runs"), or what a migration written in Go does.
	Name string `json:"name"`
	// Summary is the first sentence of the file's leading comment.
	Summary string `json:"summary,omitempty"`
}

// MigrationPlan is what Migrate would do to a database, found without
// writing to it.
type MigrationPlan struct {
	// From is the database's schema version now (0 for an empty one).
	From int64 `json:"from"`
	// To is the version it would have after migrating.
	To int64 `json:"to"`
	// Pending lists the migrations that would run, in order.
	Pending []PendingMigration `json:"pending"`
}

// PlanMigrations says which of the migrations in fsys (and the Go ones in
// extra) db, of the given dialect, lacks, reading only: goose's version table is queried when
// tableExists, a query answering one row, says it is there. A database
// newer than fsys is refused as Migrate refuses it.
func PlanMigrations(ctx context.Context, db *sql.DB, dialect goose.Dialect, tableExists string, fsys fs.FS, extra ...*goose.Migration) (*MigrationPlan, error) {
	// The provider only lists the sources: it touches the database when
	// asked to migrate or for a status, neither of which happens here.
	p, err := goose.NewProvider(dialect, db, fsys,
		goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(extra...))
	if err != nil {
		return nil, fmt.Errorf("sqlstore: migrations: %w", err)
	}
	applied, err := appliedVersions(ctx, db, tableExists)
	if err != nil {
		return nil, err
	}
	plan := &MigrationPlan{Pending: []PendingMigration{}}
	for v := range applied {
		plan.From = max(plan.From, v)
	}
	sources := p.ListSources()
	newest := sources[len(sources)-1].Version
	if plan.From > newest {
		return nil, &quire.Error{Code: quire.EPRECONDITION,
			Message: fmt.Sprintf("database schema version %d is newer than this binary (%d)", plan.From, newest)}
	}
	plan.To = max(plan.From, newest)
	for _, src := range sources {
		if applied[src.Version] {
			continue
		}
		m := PendingMigration{Version: src.Version}
		if src.Type == goose.TypeGo {
			m.Name = goMigrationName(src.Version)
		} else {
			m.Name, m.Summary = describeMigration(fsys, src.Path)
		}
		plan.Pending = append(plan.Pending, m)
	}
	return plan, nil
}

// appliedVersions reads the versions goose recorded as applied; none when
// its table does not exist yet.
func appliedVersions(ctx context.Context, db *sql.DB, tableExists string) (map[int64]bool, error) {
	applied := map[int64]bool{}
	var one int
	switch err := db.QueryRowContext(ctx, tableExists).Scan(&one); {
	case err == sql.ErrNoRows:
		return applied, nil
	case err != nil:
		return nil, fmt.Errorf("sqlstore: schema version: %w", err)
	}
	// goose records a rollback as a row with is_applied false: a version
	// counts when its newest row says applied.
	rows, err := db.QueryContext(ctx, "SELECT version_id, is_applied FROM "+versionTable+" ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("sqlstore: schema version: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int64
		var ok bool
		if err := rows.Scan(&v, &ok); err != nil {
			return nil, fmt.Errorf("sqlstore: schema version: %w", err)
		}
		if ok {
			applied[v] = true
		} else {
			delete(applied, v)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: schema version: %w", err)
	}
	// goose's row for version 0 marks the table's creation, not a migration.
	delete(applied, 0)
	return applied, nil
}

// goMigrationName names the migrations written in Go.
func goMigrationName(version int64) string {
	if version == RiverMigrationVersion {
		return "job_queue"
	}
	return fmt.Sprintf("go_%d", version)
}

// describeMigration returns a migration file's name without its number
// and extension, and the first sentence of its leading comment.
func describeMigration(fsys fs.FS, file string) (name, summary string) {
	base := strings.TrimSuffix(path.Base(file), path.Ext(file))
	if _, rest, ok := strings.Cut(base, "_"); ok {
		name = rest
	} else {
		name = base
	}
	f, err := fsys.Open(path.Base(file))
	if err != nil {
		return name, ""
	}
	defer f.Close()
	var words []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		text, ok := strings.CutPrefix(line, "--")
		if !ok || strings.HasPrefix(strings.TrimSpace(text), "+goose") {
			break
		}
		words = append(words, strings.Fields(text)...)
	}
	return name, firstSentence(strings.Join(words, " "))
}

// firstSentence cuts text after its first full stop followed by a space,
// or keeps it whole.
func firstSentence(text string) string {
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}
