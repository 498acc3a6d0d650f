// Package dumptest helps tests make damaged or changed backup archives.
package dumptest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"quire/internal/store/dump"
)

// Rewrite returns a copy of the archive raw (a .tar.gz written by
// dump) without the entries drop says to leave out (nil keeps them all),
// and with its manifest changed by edit (nil leaves it as it was).
func Rewrite(t *testing.T, raw []byte, drop func(name string) bool, edit func(*dump.Manifest)) []byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if drop != nil && drop(hdr.Name) {
			continue
		}
		if hdr.Name == "manifest.json" && edit != nil {
			var m dump.Manifest
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			edit(&m)
			if data, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
			hdr.Size = int64(len(data))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(tw.Close(), zw.Close()); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
