package dump

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Blobs is what a backup and a restore need of the blob store
// (blob.Store has it).
type Blobs interface {
	// Put stores the bytes of r and returns their key (SHA-256, hex).
	Put(ctx context.Context, r io.Reader, max int64) (key string, size int64, err error)
	// Open reads a blob.
	Open(ctx context.Context, key string) (io.ReadCloser, int64, error)
	// List calls fn for every blob, in the order of the keys.
	List(ctx context.Context, fn func(key string, size int64) error) error
}

// chunkSize is the size past which the lines of a table go on in the
// next entry: a tar entry states its size first, so each is gathered in
// memory before it is written.
const chunkSize = 4 << 20

// archiveWriter writes the entries of an archive.
type archiveWriter struct {
	gz *gzip.Writer
	tw *tar.Writer
	m  *Manifest
}

// entry writes one entry holding data.
func (a *archiveWriter) entry(name string, data []byte) error {
	if err := a.header(name, int64(len(data))); err != nil {
		return err
	}
	_, err := a.tw.Write(data)
	return err
}

// header starts an entry of size bytes.
func (a *archiveWriter) header(name string, size int64) error {
	return a.tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: a.m.CreatedAt,
		Typeflag: tar.TypeReg, Format: tar.FormatPAX})
}

// lines gathers the lines of a table or of the jobs into entries
// <dir><n>.jsonl of about chunkSize bytes, and sums them up.
type lines struct {
	a   *archiveWriter
	dir string
	n   int
	buf bytes.Buffer
	sum summer
}

// add appends one line (without its newline).
func (l *lines) add(line []byte) error {
	l.sum.add(line)
	l.buf.Write(line)
	l.buf.WriteByte('\n')
	if l.buf.Len() >= chunkSize {
		return l.flush()
	}
	return nil
}

// flush writes the lines gathered, if any, as the next entry.
func (l *lines) flush() error {
	if l.buf.Len() == 0 {
		return nil
	}
	l.n++
	err := l.a.entry(fmt.Sprintf("%s%06d.jsonl", l.dir, l.n), l.buf.Bytes())
	l.buf.Reset()
	return err
}

// Write writes the archive of the snapshot, with every blob of blobs (nil
// for none), to w, and returns its manifest. The blobs are listed after
// the database was read: blobs are never changed or removed, so those the
// snapshot refers to are all there, and the few newer ones are harmless.
func (s *Snapshot) Write(ctx context.Context, blobs Blobs, w io.Writer) (*Manifest, error) {
	gz, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Format: FormatVersion, Engine: s.eng.Name(), SchemaVersion: s.version, CreatedAt: s.created}
	a := &archiveWriter{gz: gz, tw: tar.NewWriter(gz), m: m}
	if err := a.entry(versionEntry, []byte(versionText)); err != nil {
		return nil, fmt.Errorf("dump: write: %w", err)
	}
	for _, t := range s.tables {
		e, err := s.writeTable(ctx, a, t)
		if err != nil {
			return nil, err
		}
		m.Tables = append(m.Tables, e)
	}
	m.Jobs = (&summer{}).sum()
	if s.jobs {
		if m.Jobs, err = s.writeJobs(ctx, a); err != nil {
			return nil, err
		}
	}
	if blobs != nil {
		if m.Blobs, err = writeBlobs(ctx, a, blobs); err != nil {
			return nil, err
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := errors.Join(a.entry(manifestEntry, append(data, '\n')), a.tw.Close(), gz.Close()); err != nil {
		return nil, fmt.Errorf("dump: write: %w", err)
	}
	return m, nil
}

// writeTable writes the rows of t and returns its manifest entry.
func (s *Snapshot) writeTable(ctx context.Context, a *archiveWriter, t Table) (TableEntry, error) {
	l := &lines{a: a, dir: tablesDir + t.Name + "/"}
	var line bytes.Buffer
	emit := func(row []any) error {
		line.Reset()
		if err := encodeRow(&line, row); err != nil {
			return fmt.Errorf("dump: table %s: %w", t.Name, err)
		}
		if err := l.add(line.Bytes()); err != nil {
			return fmt.Errorf("dump: write: %w", err)
		}
		return nil
	}
	var err error
	if len(t.SelfRefs) == 0 {
		err = scanTable(ctx, s.tx, t, t.Columns, emit)
	} else {
		// Rows referring to rows of the same table load after them.
		var rows [][]any
		err = scanTable(ctx, s.tx, t, t.Columns, func(row []any) error { rows = append(rows, row); return nil })
		if err == nil {
			rows, err = parentsFirst(rows, t.Columns, t.SelfRefs)
		}
		for i := 0; err == nil && i < len(rows); i++ {
			err = emit(rows[i])
		}
	}
	if err == nil {
		err = l.flush()
	}
	if err != nil {
		return TableEntry{}, fmt.Errorf("dump: %w", err)
	}
	return TableEntry{Name: t.Name, Columns: t.Columns, Sum: l.sum.sum(), NextID: s.next[t.Name]}, nil
}

// writeBlobs copies every blob into the archive, checking each against
// its key on the way.
func writeBlobs(ctx context.Context, a *archiveWriter, blobs Blobs) (BlobSum, error) {
	var sum BlobSum
	err := blobs.List(ctx, func(key string, size int64) error {
		r, n, err := blobs.Open(ctx, key)
		if err != nil {
			return fmt.Errorf("dump: read blob %s: %w", key, err)
		}
		defer r.Close()
		if err := a.header(blobsDir+key, n); err != nil {
			return fmt.Errorf("dump: write: %w", err)
		}
		h := sha256.New()
		if _, err := io.Copy(a.tw, io.TeeReader(r, h)); err != nil {
			return fmt.Errorf("dump: copy blob %s: %w", key, err)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != key {
			return fmt.Errorf("dump: blob %s is damaged in the store: its bytes hash to %s", key, got)
		}
		sum.Count++
		sum.Bytes += n
		return nil
	})
	return sum, err
}
