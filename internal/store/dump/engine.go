package dump

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river/riverdriver"
)

// Kind is the engine-neutral type of a column's values.
type Kind string

// Kinds of columns. KindDerived marks a column an engine computes from
// others (PostgreSQL's search vectors): it is not carried, and the
// engine fills it in on load.
const (
	KindText    Kind = "text"
	KindInt     Kind = "int"
	KindBool    Kind = "bool"
	KindBytes   Kind = "bytes"
	KindDerived Kind = "derived"
)

// Column is a column of a table.
type Column struct {
	// Name is the column's name.
	Name string `json:"name"`
	// Kind is the kind of its values.
	Kind Kind `json:"type"`
	// Type is the type the engine declares, for messages; "" in an
	// archive.
	Type string `json:"-"`
}

// Table is what an engine's catalog says of one table.
type Table struct {
	// Name is the table's name.
	Name string
	// Columns are every column, in the schema's order.
	Columns []Column
	// Key are the columns of the primary key, in its order; none when
	// the table has no primary key.
	Key []string
	// Refs are the other tables its foreign keys refer to.
	Refs []string
	// SelfRefs are its foreign keys to itself (a parent column).
	SelfRefs []SelfRef
}

// SelfRef is a foreign key from a table to itself: Column holds a value
// of Ref in the parent row.
type SelfRef struct {
	Column, Ref string
}

// Querier runs reads: a pool, a connection or a transaction.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Fold turns the text of a search section's title or body into the text
// the search index holds (search.IndexText).
type Fold func(string) string

// Engine is what a backup needs of one database engine. The sqlite and
// postgres packages implement it.
type Engine interface {
	// Name is the engine's name in manifests: "sqlite" or "postgres".
	Name() string
	// Rebind rewrites a statement written with ? placeholders.
	Rebind(query string) string
	// BeginSnapshot starts the read-only transaction a backup reads in,
	// one snapshot of the whole database.
	BeginSnapshot(ctx context.Context, db *sql.DB) (*sql.Tx, error)
	// Tables describes the base tables of the database, leaving out what
	// the engine keeps for itself (its own catalog, the search index's
	// virtual tables). A column whose type the engine cannot map has an
	// empty Kind.
	Tables(ctx context.Context, q Querier) ([]Table, error)
	// NextIDs returns, by table, the least value each id sequence hands
	// out next, for the tables that have one.
	NextIDs(ctx context.Context, q Querier, tables []Table) (map[string]int64, error)
	// Jobs returns River's executor over tx, to read the job queue.
	Jobs(tx *sql.Tx) riverdriver.ExecutorTx
	// InsertJob queues a job as it was, its attempts and errors with it.
	InsertJob(ctx context.Context, tx *sql.Tx, job *riverdriver.JobInsertFullParams) error
	// BeginLoad prepares tx for loading rows as they were: triggers off
	// (their effects are in the rows already), and foreign keys checked
	// at the latest at commit. The function it returns turns the
	// triggers back on; it runs before the commit.
	BeginLoad(ctx context.Context, tx *sql.Tx) (func(context.Context) error, error)
	// Derived returns, for an insert into table of the columns named,
	// the derived columns to add, the SQL expression of each (with ?
	// placeholders) and a function giving their arguments from a row's
	// values; nil when the table has none.
	Derived(table string, columns []string, fold Fold) (names, exprs []string, args func(row []any) []any)
	// AfterLoad runs once every row is in: it rebuilds what the engine
	// derives beyond columns (SQLite's search index) and moves the id
	// sequences to at least next (and past every id loaded).
	AfterLoad(ctx context.Context, tx *sql.Tx, tables []Table, next map[string]int64, fold Fold) error
}
