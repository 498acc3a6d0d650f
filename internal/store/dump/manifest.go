package dump

import "time"

// FormatVersion is the version of the archive layout this package writes
// and reads.
const FormatVersion = 1

// versionText is the content of the archive's first entry, VERSION.
const versionText = "quire-backup 1\n"

// Names of the archive's entries.
const (
	versionEntry  = "VERSION"
	manifestEntry = "manifest.json"
	tablesDir     = "tables/"
	jobsDir       = "jobs/"
	blobsDir      = "blobs/"
)

// Manifest describes an archive: where it came from and what it holds.
type Manifest struct {
	// Format is FormatVersion of the writer.
	Format int `json:"format"`
	// Engine is the engine the archive was read from: "sqlite" or
	// "postgres".
	Engine string `json:"engine"`
	// SchemaVersion is the database's migration version.
	SchemaVersion int64 `json:"schemaVersion"`
	// CreatedAt is when the snapshot was taken.
	CreatedAt time.Time `json:"createdAt"`
	// Tables lists the tables in the order they load: a table after the
	// tables it refers to.
	Tables []TableEntry `json:"tables"`
	// Jobs sums up the job queue's pending jobs.
	Jobs Sum `json:"jobs"`
	// Blobs sums up the blobs.
	Blobs BlobSum `json:"blobs"`
}

// TableEntry is one table of an archive.
type TableEntry struct {
	// Name is the table's name.
	Name string `json:"name"`
	// Columns are the columns carried, in the order of each row's values.
	Columns []Column `json:"columns"`
	// Sum counts the rows and checksums them.
	Sum
	// NextID, when not 0, is the least value the table's id sequence
	// hands out next.
	NextID int64 `json:"nextId,omitempty"`
}

// Sum is the row count and checksum of a table or of the jobs: the
// SHA-256 of the sorted SHA-256 digests of every row's line, so that it
// does not depend on the order of the rows.
type Sum struct {
	// Rows is the number of rows.
	Rows int64 `json:"rows"`
	// SHA256 is the checksum, in hex.
	SHA256 string `json:"sha256"`
}

// BlobSum counts the blobs of an archive.
type BlobSum struct {
	// Count is the number of blobs.
	Count int64 `json:"count"`
	// Bytes is their total size.
	Bytes int64 `json:"bytes"`
}

// Rows returns the number of rows of every table.
func (m *Manifest) Rows() int64 {
	var n int64
	for _, t := range m.Tables {
		n += t.Rows
	}
	return n
}

// table returns the entry of the table name, or nil.
func (m *Manifest) table(name string) *TableEntry {
	for i := range m.Tables {
		if m.Tables[i].Name == name {
			return &m.Tables[i]
		}
	}
	return nil
}
