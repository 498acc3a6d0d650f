package service

import (
	"bytes"
	"context"
	"io"
	"path"
	"strings"

	"quire/internal/gitbook"
	"quire/internal/gitremote"
	"quire/internal/quire"
)

// gitInlineMax is the size up to which an imported file is read into
// memory whatever it is; larger files other than Markdown and YAML are
// streamed from the fetched pack into the blob store.
const gitInlineMax = 16 << 10

// sniffLen is how much of a file's start media type detection reads
// (http.DetectContentType looks at no more).
const sniffLen = 512

// gitInline reports whether an imported file is read into memory: the
// page files, the configuration and small files.
func gitInline(p string, size int64) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".yaml", ".yml":
		return true
	}
	return size <= gitInlineMax
}

// repoSource is the repository an import reads: the checkout of its
// commit, its files by path relative to the project directory.
type repoSource struct {
	co *gitremote.Checkout
	// root is the content root .gitbook.yaml names, once read.
	root string
}

// blob returns the object id and size of the file at a path relative to
// the content root.
func (r *repoSource) blob(rel string) (gitremote.Blob, bool) {
	b, ok := r.co.Blobs[r.full(rel)]
	return b, ok
}

// full is the path in the checkout of a path relative to the content root.
func (r *repoSource) full(rel string) string {
	if r.root == "" {
		return rel
	}
	return r.root + "/" + rel
}

// inline returns the bytes of a file read into memory, by a path relative
// to the content root.
func (r *repoSource) inline(rel string) ([]byte, bool) {
	b, ok := r.co.Files[r.full(rel)]
	return b, ok
}

// oid implements fileSource.
func (r *repoSource) oid(rel string, _ []byte) string {
	b, _ := r.blob(rel)
	return b.OID
}

// open implements fileSource: a file read into memory is given from
// there, any other is streamed from the checkout.
func (r *repoSource) open(rel string, _ []byte) (io.ReadCloser, int64, error) {
	if data, ok := r.inline(rel); ok {
		return io.NopCloser(bytes.NewReader(data)), int64(len(data)), nil
	}
	b, _ := r.blob(rel)
	rc, err := r.co.Open(r.full(rel))
	return rc, b.Size, err
}

// gitbookFiles is what gitbook.Read is given: the bytes of the files read
// into memory and, for the others, only their start, enough to tell
// their media type, or nothing when the space holds a file of the same
// Git object id and name already (its media type is kept). known holds
// the object ids and names of the space's files (see knownFiles).
func (r *repoSource) gitbookFiles(ctx context.Context, known map[string]bool) (gitbook.Files, error) {
	files := make(gitbook.Files, len(r.co.Blobs))
	for p, b := range r.co.Blobs {
		if data, ok := r.co.Files[p]; ok {
			files[p] = data
			continue
		}
		if known[b.OID+"\x00"+path.Base(p)] {
			files[p] = nil
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rc, err := r.co.Open(p)
		if err != nil {
			return nil, err
		}
		head := make([]byte, sniffLen)
		n, err := io.ReadFull(rc, head)
		rc.Close()
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, err
		}
		files[p] = head[:n]
	}
	return files, nil
}

// knownFiles lists the Git object id and name, joined by a NUL, of each
// file known holds.
func (k *knownPaths) knownFiles() map[string]bool {
	out := make(map[string]bool, len(k.byFileID))
	for _, f := range k.byFileID {
		if f.Git != nil && f.Git.OID != "" {
			out[f.Git.OID+"\x00"+f.Name] = true
		}
	}
	return out
}

// byOID returns a file of the space holding the Git object oid, named
// name, if any.
func (k *knownPaths) byOID(oid, name string) *quire.File {
	if k.oids == nil {
		k.oids = make(map[string]*quire.File, len(k.byFileID))
		for _, f := range k.byFileID {
			if f.Git != nil && f.Git.OID != "" {
				k.oids[f.Git.OID+"\x00"+f.Name] = f
			}
		}
	}
	return k.oids[oid+"\x00"+name]
}
