package service

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"io"
	"io/fs"
	"strconv"

	"quire/internal/gitbook"
)

// dirSource is a space's repository in an export, read through an
// fs.FS rooted at the space's directory: the fileSource the Git Sync
// importer takes. As from a fetched pack, Markdown, YAML and small files
// are read into memory and the others streamed into the blob store.
type dirSource struct {
	fsys fs.FS
	// root is the content root .gitbook.yaml names, once read.
	root string
	// inline holds the files read whole, by path in fsys.
	inline map[string][]byte
}

// full is the path in fsys of a path relative to the content root.
func (d *dirSource) full(rel string) string {
	if d.root == "" {
		return rel
	}
	return d.root + "/" + rel
}

// gitbookFiles is what gitbook.Read is given: the bytes of the files read
// into memory, and the start of the others, enough to tell their media
// type. Entries other than regular files and directories are skipped.
func (d *dirSource) gitbookFiles(ctx context.Context) (gitbook.Files, error) {
	files := gitbook.Files{}
	d.inline = map[string][]byte{}
	err := fs.WalkDir(d.fsys, ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !de.Type().IsRegular() {
			return nil
		}
		info, err := de.Info()
		if err != nil {
			return err
		}
		if gitInline(p, info.Size()) {
			b, err := fs.ReadFile(d.fsys, p)
			if err != nil {
				return err
			}
			files[p], d.inline[p] = b, b
			return nil
		}
		f, err := d.fsys.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		head := make([]byte, sniffLen)
		n, err := io.ReadFull(f, head)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return err
		}
		files[p] = head[:n]
		return nil
	})
	return files, err
}

// oid implements fileSource: the Git object id of the file, hashed as it
// is read for a file not read into memory ("" when it cannot be read;
// open then tells why).
func (d *dirSource) oid(rel string, _ []byte) string {
	p := d.full(rel)
	if b, ok := d.inline[p]; ok {
		return gitBlobOID(b)
	}
	f, err := d.fsys.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return ""
	}
	h := sha1.New()
	h.Write([]byte("blob " + strconv.FormatInt(info.Size(), 10) + "\x00"))
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// open implements fileSource: a file read into memory is given from
// there, any other is streamed from fsys.
func (d *dirSource) open(rel string, _ []byte) (io.ReadCloser, int64, error) {
	p := d.full(rel)
	if b, ok := d.inline[p]; ok {
		return io.NopCloser(bytes.NewReader(b)), int64(len(b)), nil
	}
	f, err := d.fsys.Open(p)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}
