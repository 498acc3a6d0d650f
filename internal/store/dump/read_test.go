package dump

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// entry is a tar entry of a test archive.
type entry struct {
	name string
	data []byte
}

// testArchive returns the entries of a whole archive: two tables (one of
// two chunks), a job, a blob and the manifest.
func testArchive(t *testing.T) []entry {
	t.Helper()
	blobData := []byte("the bytes of a file")
	h := sha256.Sum256(blobData)
	key := hex.EncodeToString(h[:])
	users := [][]byte{[]byte(`["u1","Ann",true]`), []byte(`["u2","Bob",false]`)}
	tokens := [][]byte{[]byte(`["t1","u1","AAEC"]`)}
	job := []byte(`{"kind":"content_events","args":{"space":"s1"},"queue":"default","priority":1,"maxAttempts":10,` +
		`"attempt":0,"state":"scheduled","createdAt":"2026-01-02T03:04:05Z","scheduledAt":"2026-01-02T04:04:05Z"}`)
	sum := func(lines ...[]byte) Sum {
		var s summer
		for _, l := range lines {
			s.add(l)
		}
		return s.sum()
	}
	m := Manifest{Format: FormatVersion, Engine: "sqlite", SchemaVersion: 28, CreatedAt: time.Unix(1, 0).UTC(),
		Tables: []TableEntry{
			{Name: "users", Columns: []Column{{Name: "id", Kind: KindText}, {Name: "name", Kind: KindText},
				{Name: "admin", Kind: KindBool}}, Sum: sum(users...)},
			{Name: "empty", Columns: []Column{{Name: "id", Kind: KindText}}, Sum: sum()},
			{Name: "tokens", Columns: []Column{{Name: "id", Kind: KindText}, {Name: "user_id", Kind: KindText},
				{Name: "hash", Kind: KindBytes}}, Sum: sum(tokens...), NextID: 5},
		},
		Jobs:  sum(job),
		Blobs: BlobSum{Count: 1, Bytes: int64(len(blobData))},
	}
	manifest, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	line := func(l []byte) []byte { return append(append([]byte{}, l...), '\n') }
	return []entry{
		{versionEntry, []byte(versionText)},
		{"tables/users/000001.jsonl", line(users[0])},
		{"tables/users/000002.jsonl", line(users[1])},
		{"tables/tokens/000001.jsonl", line(tokens[0])},
		{"jobs/000001.jsonl", line(job)},
		{"blobs/" + key, blobData},
		{manifestEntry, manifest},
	}
}

// writeEntries writes entries as a gzip-compressed tar file and returns
// its path.
func writeEntries(t *testing.T, entries []entry) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o600, Size: int64(len(e.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, buf.Bytes())
}

// flip returns data with the byte at i changed.
func flip(data []byte, i int) []byte {
	b := bytes.Clone(data)
	b[i] ^= 0x55
	return b
}

// writeFile writes data to a new file and returns its path.
func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "archive.tar.gz")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenWholeArchive(t *testing.T) {
	entries := testArchive(t)
	a, err := Open(writeEntries(t, entries))
	if err != nil {
		t.Fatal(err)
	}
	if a.Manifest.Rows() != 3 || a.Manifest.table("tokens").NextID != 5 || a.Manifest.Jobs.Rows != 1 {
		t.Errorf("manifest = %+v", a.Manifest)
	}
	key := strings.TrimPrefix(entries[5].name, blobsDir)
	if !a.HasBlob(key) || a.HasBlob(strings.Repeat("0", 64)) {
		t.Errorf("HasBlob(%s) = %v", key, a.HasBlob(key))
	}
}

func TestOpenRefusesBrokenArchives(t *testing.T) {
	whole := testArchive(t)
	without := func(i int) []entry { return append(append([]entry{}, whole[:i]...), whole[i+1:]...) }
	swapped := func(i, j int) []entry {
		e := append([]entry{}, whole...)
		e[i], e[j] = e[j], e[i]
		return e
	}
	changed := func(i int, data string) []entry {
		e := append([]entry{}, whole...)
		e[i].data = []byte(data)
		return e
	}
	file, err := os.ReadFile(writeEntries(t, whole))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, want string
	}{
		{"not gzip", writeFile(t, []byte("hello, not an archive")), "not a Quire backup"},
		{"empty", writeFile(t, nil), "not a Quire backup"},
		{"cut in half", writeFile(t, file[:len(file)/2]), "cut short"},
		{"cut before the end", writeFile(t, file[:len(file)-4]), "cut short"},
		{"a byte changed", writeFile(t, flip(file, len(file)/2)), "the file is"},
		{"the checksum changed", writeFile(t, flip(file, len(file)-6)), "the file is damaged: gzip: invalid checksum"},
		{"no version", writeEntries(t, without(0)), "not a Quire backup"},
		{"other version", writeEntries(t, changed(0, "quire-backup 2\n")), "format"},
		{"no manifest", writeEntries(t, without(6)), "manifest is missing"},
		{"a chunk lost", writeEntries(t, without(1)), "part of table users is missing"},
		{"a table lost", writeEntries(t, without(3)), "table tokens holds 0 rows"},
		{"a row changed", writeEntries(t, changed(2, `["u2","Bob",true]`+"\n")), "the file is damaged"},
		{"jobs lost", writeEntries(t, without(4)), "jobs are 0"},
		{"blob changed", writeEntries(t, changed(5, "other bytes")), "is damaged"},
		{"blob lost", writeEntries(t, without(5)), "holds 0 blobs"},
		{"tables apart", writeEntries(t, swapped(2, 3)), "not together"},
		{"after the manifest", writeEntries(t, append(append([]entry{}, whole...), whole[4])), "after the manifest"},
		{"manifest not JSON", writeEntries(t, changed(6, "{")), "manifest is not valid"},
		{"unknown entry", writeEntries(t, append([]entry{whole[0], {"etc/passwd", []byte("x")}}, whole[1:]...)), "unexpected entry"},
		{"line without newline", writeEntries(t, changed(3, `["t1","u1","AAEC"]`)), "newline"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(c.path)
			var ae *ArchiveError
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Open = %v; want an ArchiveError about %q", err, c.want)
			}
		})
	}
}
