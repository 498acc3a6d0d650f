package service

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"time"

	"quire/internal/quire"
)

// checkExportName refuses a file name that would leave the export.
func checkExportName(name string) error {
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("export: %q is not a path inside the export", name)
	}
	return nil
}

// DirSink writes an export into a directory, through an os.Root so that
// no name reaches outside it.
type DirSink struct {
	root *os.Root
}

// NewDirSink makes dir, which must be missing or empty, and returns a
// sink writing into it. A directory holding files already is EINVALID,
// so that two exports never mix.
func NewDirSink(dir string) (*DirSink, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 {
		return nil, quire.Invalid("directory", "%s is not empty; export into a new or empty directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &DirSink{root: root}, nil
}

// File implements ExportSink.
func (d *DirSink) File(name string, data []byte) error {
	if err := checkExportName(name); err != nil {
		return err
	}
	if dir := path.Dir(name); dir != "." {
		if err := d.root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return d.root.WriteFile(name, data, 0o644)
}

// Close releases the directory.
func (d *DirSink) Close() error { return d.root.Close() }

// ZipSink writes an export as a zip archive, streamed: each file is
// compressed as it comes, and the archive's directory is written by
// Close.
type ZipSink struct {
	w  *zip.Writer
	at time.Time
}

// NewZipSink returns a sink writing a zip archive to w, its files dated
// at.
func NewZipSink(w io.Writer, at time.Time) *ZipSink { return &ZipSink{w: zip.NewWriter(w), at: at} }

// File implements ExportSink.
func (z *ZipSink) File(name string, data []byte) error {
	if err := checkExportName(name); err != nil {
		return err
	}
	f, err := z.w.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: z.at})
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return err
}

// Close writes the archive's directory.
func (z *ZipSink) Close() error { return z.w.Close() }

// TarGzSink writes an export as a gzip-compressed tar archive, streamed.
type TarGzSink struct {
	gz *gzip.Writer
	tw *tar.Writer
	at time.Time
}

// NewTarGzSink returns a sink writing a .tar.gz archive to w, its files
// dated at.
func NewTarGzSink(w io.Writer, at time.Time) *TarGzSink {
	gz := gzip.NewWriter(w)
	return &TarGzSink{gz: gz, tw: tar.NewWriter(gz), at: at}
}

// File implements ExportSink.
func (t *TarGzSink) File(name string, data []byte) error {
	if err := checkExportName(name); err != nil {
		return err
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(data)), Mode: 0o644, ModTime: t.at,
		Format: tar.FormatPAX}
	if err := t.tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err := t.tw.Write(data)
	return err
}

// Close ends the archive and the compression.
func (t *TarGzSink) Close() error { return errors.Join(t.tw.Close(), t.gz.Close()) }
