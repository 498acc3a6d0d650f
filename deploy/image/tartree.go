package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
)

// owner is the numeric owner of a file in the image; the zero owner is
// root, who owns everything but the data directory.
type owner struct{ uid, gid int }

// tarTree writes the files of one layer as a tar archive, each parent
// directory once and before its children, every entry with the same
// modification time so that the same inputs make the same layer.
type tarTree struct {
	buf   bytes.Buffer
	w     *tar.Writer
	mtime time.Time
	dirs  map[string]bool
}

// newTarTree starts a layer whose entries carry mtime.
func newTarTree(mtime time.Time) *tarTree {
	t := &tarTree{mtime: mtime, dirs: map[string]bool{}}
	t.w = tar.NewWriter(&t.buf)
	return t
}

// dir adds the directory p (absolute) with mode and owner, and its
// missing parents as root's 0755 directories.
func (t *tarTree) dir(p string, mode int64, o owner) error {
	p = path.Clean(p)
	if p == "/" || t.dirs[p] {
		return nil
	}
	if err := t.dir(path.Dir(p), 0o755, owner{}); err != nil {
		return err
	}
	t.dirs[p] = true
	return t.w.WriteHeader(t.header(tar.TypeDir, p+"/", mode, o, 0))
}

// file adds the regular file p (absolute) holding data, with mode and
// owner, and its missing parents.
func (t *tarTree) file(p string, data []byte, mode int64, o owner) error {
	p = path.Clean(p)
	if err := t.dir(path.Dir(p), 0o755, owner{}); err != nil {
		return err
	}
	if err := t.w.WriteHeader(t.header(tar.TypeReg, p, mode, o, int64(len(data)))); err != nil {
		return err
	}
	_, err := t.w.Write(data)
	return err
}

// header is the tar header of an entry; names are relative to the root,
// as image layers have them.
func (t *tarTree) header(typ byte, p string, mode int64, o owner, size int64) *tar.Header {
	return &tar.Header{
		Typeflag: typ,
		Name:     strings.TrimPrefix(p, "/"),
		Mode:     mode,
		Uid:      o.uid,
		Gid:      o.gid,
		Size:     size,
		ModTime:  t.mtime,
	}
}

// bytes closes the archive and returns it.
func (t *tarTree) bytes() ([]byte, error) {
	if err := t.w.Close(); err != nil {
		return nil, fmt.Errorf("closing a layer: %w", err)
	}
	return t.buf.Bytes(), nil
}

// opener returns a function reading b afresh each time.
func opener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}
