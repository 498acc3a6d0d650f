package dump

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ArchiveError is an archive that cannot be restored: not an archive of
// this format, damaged or cut short.
type ArchiveError struct {
	// Path is the archive's file.
	Path string
	// Err says what is wrong.
	Err error
}

// Error implements error.
func (e *ArchiveError) Error() string { return fmt.Sprintf("archive %s: %v", e.Path, e.Err) }

// Unwrap returns what is wrong.
func (e *ArchiveError) Unwrap() error { return e.Err }

// maxEntry bounds the size of an entry read into memory (a chunk of
// lines, the manifest): a damaged header cannot make a restore allocate
// more.
const maxEntry = 1 << 30

// Archive is an archive read through once and found whole: every entry
// matches the manifest.
type Archive struct {
	// Path is the archive's file.
	Path string
	// Manifest is its manifest.
	Manifest *Manifest
	// blobs are the keys of its blobs.
	blobs map[string]bool
}

// HasBlob reports whether the archive holds the blob key.
func (a *Archive) HasBlob(key string) bool { return a.blobs[key] }

// entryKind tells what an entry holds.
type entryKind int

// Kinds of entries.
const (
	entryTable entryKind = iota + 1
	entryJobs
	entryBlob
	entryManifest
)

// entryName is an entry's name taken apart.
type entryName struct {
	kind entryKind
	// table is the table of a table chunk, key the key of a blob.
	table, key string
	// chunk is the number of a table or jobs chunk.
	chunk int
}

// parseName takes the name of an entry apart.
func parseName(name string) (entryName, error) {
	chunkNo := func(file string) (int, bool) {
		num, ok := strings.CutSuffix(file, ".jsonl")
		n, err := strconv.Atoi(num)
		return n, ok && err == nil && n > 0
	}
	switch {
	case name == manifestEntry:
		return entryName{kind: entryManifest}, nil
	case strings.HasPrefix(name, blobsDir):
		return entryName{kind: entryBlob, key: strings.TrimPrefix(name, blobsDir)}, nil
	case strings.HasPrefix(name, jobsDir):
		if n, ok := chunkNo(strings.TrimPrefix(name, jobsDir)); ok {
			return entryName{kind: entryJobs, chunk: n}, nil
		}
	case strings.HasPrefix(name, tablesDir):
		table, file, ok := strings.Cut(strings.TrimPrefix(name, tablesDir), "/")
		if n, okn := chunkNo(file); ok && okn && table != "" {
			return entryName{kind: entryTable, table: table, chunk: n}, nil
		}
	}
	return entryName{}, fmt.Errorf("unexpected entry %q", name)
}

// walk reads the archive at path entry by entry, after checking its
// VERSION entry, and calls fn with each; it ends with the check of the
// compressed stream's own checksum.
func walk(path string, fn func(name entryName, hdr *tar.Header, r io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("not a Quire backup (no gzip stream: %w)", err)
	}
	tr := tar.NewReader(gz)
	hdr, err := tr.Next()
	if err != nil {
		return fmt.Errorf("not a Quire backup (no tar entries: %w)", err)
	}
	if hdr.Name != versionEntry || hdr.Size > int64(len(versionText)) {
		return fmt.Errorf("not a Quire backup (it starts with %q)", hdr.Name)
	}
	v, err := io.ReadAll(tr)
	if err != nil {
		return cutShort(err)
	}
	if string(v) != versionText {
		return fmt.Errorf("archive format %q is not one this binary reads (%q)",
			strings.TrimSpace(string(v)), strings.TrimSpace(versionText))
	}
	// A damaged stream may still inflate, to garbage: when what it holds
	// is wrong, the stream's own check at its end tells why.
	fail := func(err error) error {
		if _, derr := io.Copy(io.Discard, gz); derr != nil {
			return cutShort(derr)
		}
		return err
	}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(cutShort(err))
		}
		if hdr.Typeflag != tar.TypeReg {
			return fail(fmt.Errorf("unexpected entry %q of type %q", hdr.Name, hdr.Typeflag))
		}
		name, err := parseName(hdr.Name)
		if err != nil {
			return fail(err)
		}
		if err := fn(name, hdr, tr); err != nil {
			return fail(err)
		}
	}
	// Reading to the end checks the gzip trailer (length and CRC).
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return cutShort(err)
	}
	return nil
}

// cutShort explains a read error of the archive.
func cutShort(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the file is cut short")
	}
	return fmt.Errorf("the file is damaged: %w", err)
}

// readEntry reads an entry of at most maxEntry bytes.
func readEntry(hdr *tar.Header, r io.Reader) ([]byte, error) {
	if hdr.Size > maxEntry {
		return nil, fmt.Errorf("entry %s is too large (%d bytes)", hdr.Name, hdr.Size)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, cutShort(err)
	}
	return b, nil
}

// eachLine calls fn with every line of data, a chunk of lines.
func eachLine(data []byte, fn func(line []byte) error) error {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return errors.New("a chunk of lines does not end with a newline")
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if err := fn(data[:i]); err != nil {
			return err
		}
		data = data[i+1:]
	}
	return nil
}

// Open reads the archive at path through and checks it whole: its
// format, each table's and the jobs' row counts and checksums, each
// blob's bytes against its key, the counts against the manifest. Nothing
// is written anywhere; a restore loads only an archive Open accepted.
func Open(path string) (*Archive, error) {
	a := &Archive{Path: path, blobs: map[string]bool{}}
	if err := a.check(); err != nil {
		return nil, &ArchiveError{Path: path, Err: err}
	}
	return a, nil
}

// check is Open's reading.
func (a *Archive) check() error {
	var (
		order     []string
		sums      = map[string]*summer{}
		lastChunk = map[string]int{}
		jobs      summer
		jobChunk  int
		blobs     BlobSum
		m         *Manifest
	)
	err := walk(a.Path, func(name entryName, hdr *tar.Header, r io.Reader) error {
		if m != nil {
			return fmt.Errorf("entry %s after the manifest", hdr.Name)
		}
		switch name.kind {
		case entryTable:
			s := sums[name.table]
			if s == nil {
				s = &summer{}
				sums[name.table] = s
				order = append(order, name.table)
			} else if order[len(order)-1] != name.table {
				return fmt.Errorf("the rows of table %s are not together", name.table)
			}
			if name.chunk != lastChunk[name.table]+1 {
				return fmt.Errorf("entry %s is out of order: a part of table %s is missing", hdr.Name, name.table)
			}
			lastChunk[name.table] = name.chunk
			data, err := readEntry(hdr, r)
			if err != nil {
				return err
			}
			return eachLine(data, func(line []byte) error { s.add(line); return nil })
		case entryJobs:
			if name.chunk != jobChunk+1 {
				return fmt.Errorf("entry %s is out of order: a part of the jobs is missing", hdr.Name)
			}
			jobChunk = name.chunk
			data, err := readEntry(hdr, r)
			if err != nil {
				return err
			}
			return eachLine(data, func(line []byte) error { jobs.add(line); return nil })
		case entryBlob:
			if a.blobs[name.key] {
				return fmt.Errorf("blob %s appears twice", name.key)
			}
			h := sha256.New()
			n, err := io.Copy(h, r)
			if err != nil {
				return cutShort(err)
			}
			if got := hex.EncodeToString(h.Sum(nil)); got != name.key {
				return fmt.Errorf("blob %s is damaged: its bytes hash to %s", name.key, got)
			}
			a.blobs[name.key] = true
			blobs.Count++
			blobs.Bytes += n
		case entryManifest:
			data, err := readEntry(hdr, r)
			if err != nil {
				return err
			}
			m = &Manifest{}
			if err := json.Unmarshal(data, m); err != nil {
				return fmt.Errorf("the manifest is not valid: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if m == nil {
		return errors.New("the manifest is missing: the file is cut short")
	}
	a.Manifest = m
	return m.matches(order, sums, jobs.sum(), blobs)
}

// matches checks the manifest against what the archive holds.
func (m *Manifest) matches(order []string, sums map[string]*summer, jobs Sum, blobs BlobSum) error {
	if m.Format != FormatVersion {
		return fmt.Errorf("archive format %d is not one this binary reads (%d)", m.Format, FormatVersion)
	}
	if m.Engine == "" || m.SchemaVersion <= 0 {
		return errors.New("the manifest names no engine or schema version")
	}
	var want []string
	seen := map[string]bool{}
	for _, t := range m.Tables {
		if t.Name == "" || seen[t.Name] || len(t.Columns) == 0 {
			return fmt.Errorf("the manifest lists a table %q twice, or without columns", t.Name)
		}
		seen[t.Name] = true
		for _, c := range t.Columns {
			switch c.Kind {
			case KindText, KindInt, KindBool, KindBytes:
			default:
				return fmt.Errorf("table %s: column %q has an unknown type %q", t.Name, c.Name, c.Kind)
			}
		}
		got := Sum{SHA256: (&summer{}).sum().SHA256}
		if s := sums[t.Name]; s != nil {
			got = s.sum()
			want = append(want, t.Name)
		}
		if got != t.Sum {
			return fmt.Errorf("table %s holds %d rows with checksum %s; the manifest says %d rows, %s: the file is damaged",
				t.Name, got.Rows, got.SHA256, t.Rows, t.SHA256)
		}
	}
	for _, name := range order {
		if !seen[name] {
			return fmt.Errorf("table %s is not in the manifest", name)
		}
	}
	if !slices.Equal(order, want) {
		return errors.New("the tables are not in the manifest's order")
	}
	if jobs != m.Jobs {
		return fmt.Errorf("the jobs are %d with checksum %s; the manifest says %d, %s: the file is damaged",
			jobs.Rows, jobs.SHA256, m.Jobs.Rows, m.Jobs.SHA256)
	}
	if blobs != m.Blobs {
		return fmt.Errorf("the archive holds %d blobs of %d bytes; the manifest says %d of %d",
			blobs.Count, blobs.Bytes, m.Blobs.Count, m.Blobs.Bytes)
	}
	return nil
}
