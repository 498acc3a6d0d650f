// Package dump writes a running Quire database, and its blobs, as one
// engine-neutral archive, and loads such an archive into an empty
// database of either engine: the backup and restore of the server, and
// the way to move from SQLite to PostgreSQL or back.
//
// An archive is a gzip-compressed tar file:
//
//	VERSION                       "quire-backup 1"
//	tables/<table>/<n>.jsonl      the rows of a table, one JSON array each,
//	                              in the manifest's column order, in chunks
//	jobs/<n>.jsonl                the job queue's pending jobs
//	blobs/<key>                   every blob, named by its SHA-256
//	manifest.json                 engine, schema version, tables, columns,
//	                              row counts and checksums (written last)
//
// The rows are read in one snapshot of the database (a read transaction
// on SQLite's write-ahead log, a REPEATABLE READ transaction on
// PostgreSQL). A value is a JSON string (text), number (integer), true or
// false (boolean), base64 string (bytes) or null; the manifest names each
// column's kind, and a load converts it to the target column's type. The
// engine-specific parts (the catalog, triggers, id sequences, the search
// index) are the Engine of each adapter package.
package dump
