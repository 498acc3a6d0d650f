package service

import (
	"archive/zip"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"

	"quire/internal/quire"
)

// OpenExport opens an export written by an export to a directory, or the
// zip archive the API answers, as a file system; close it when done.
func OpenExport(p string) (fs.FS, func() error, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, nil, quire.Invalid("path", "%v", err)
	}
	if info.IsDir() {
		root, err := os.OpenRoot(p)
		if err != nil {
			return nil, nil, err
		}
		return root.FS(), root.Close, nil
	}
	if !strings.EqualFold(path.Ext(p), ".zip") {
		return nil, nil, quire.Invalid("path", "%s is neither a directory nor a .zip archive (extract a .tar.gz first)", p)
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, nil, quire.Invalid("path", "%s: %v", p, err)
	}
	return zr, zr.Close, nil
}

// ExportRoots lists where the organizations of an export are: "." when
// its top holds a manifest, else each directory directly under it that
// holds one (an export of every organization), in name order. An export
// with neither is EINVALID.
func ExportRoots(fsys fs.FS) ([]string, error) {
	if _, err := fs.Stat(fsys, ManifestFile); err == nil {
		return []string{"."}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, e.Name()+"/"+ManifestFile); err == nil {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		return nil, quire.Invalid(ManifestFile, "not found at the top of the export, nor in a directory under it")
	}
	return out, nil
}
