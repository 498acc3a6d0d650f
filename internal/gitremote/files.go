package gitremote

import (
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Files is a repository tree: slash-separated path -> file bytes.
type Files map[string][]byte

// Blob is a regular file of a checkout: its Git object id (hexadecimal)
// and its size in bytes.
type Blob struct {
	OID  string
	Size int64
}

// Checkout is one commit of a remote as read by Fetch or Open. The
// checkout of Open holds files on disk until Close; it is not safe for
// concurrent use.
type Checkout struct {
	// OID is the hash of the commit, in hexadecimal.
	OID string
	// Message is the commit message.
	Message string
	// Own is true when the commit carries this Remote's author identity:
	// an export made it.
	Own bool
	// Files holds the bytes of the regular files under the directory
	// asked for that were read (all of them for Fetch), their paths
	// relative to that directory. Symbolic links and submodules are left
	// out.
	Files Files
	// Blobs lists every regular file under the directory asked for, read
	// or not, by the same paths.
	Blobs map[string]Blob

	objects  storer.EncodedObjectStorer
	redacted string // the remote's URL, for errors
	dir      string
	close    func() error
}

// Open returns the bytes of the file at path (as in Blobs) as a stream,
// read from disk as it is read; the caller closes it. A path Blobs does
// not list gives an error wrapping fs.ErrNotExist, an object the
// repository lacks one wrapping ErrObjectMissing.
func (c *Checkout) Open(path string) (io.ReadCloser, error) {
	b, ok := c.Blobs[path]
	if !ok || c.objects == nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
	blob, err := object.GetBlob(c.objects, plumbing.NewHash(b.OID))
	if err != nil {
		var t target
		t.redacted = c.redacted
		if missingAt(err, plumbing.NewHash(b.OID), "") != err {
			return nil, objectMissing(&t, b.OID, join(c.dir, path))
		}
		return nil, err
	}
	return blob.Reader()
}

// Close releases what Open keeps on disk; the checkout's files can no
// longer be opened. Closing twice does nothing.
func (c *Checkout) Close() error {
	if c.close == nil {
		return nil
	}
	err := c.close()
	c.close, c.objects = nil, nil
	return err
}

// cleanDir turns a directory argument into "" (the root) or a clean
// relative path without a trailing slash; ok is false for paths that
// leave the tree or name .git.
func cleanDir(dir string) (string, bool) {
	dir = strings.Trim(dir, "/")
	if dir == "" || dir == "." {
		return "", true
	}
	if !validPath(dir) {
		return "", false
	}
	return dir, true
}

// validPath reports whether p is a clean, relative, slash-separated path
// whose segments are all allowed in a Git tree.
func validPath(p string) bool {
	if p == "" || path.Clean(p) != p || strings.HasPrefix(p, "/") {
		return false
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.EqualFold(seg, ".git") || strings.ContainsRune(seg, 0) {
			return false
		}
	}
	return true
}

// under reports whether p lies in dir ("" is the whole tree) and returns
// p relative to dir.
func under(dir, p string) (string, bool) {
	if dir == "" {
		return p, true
	}
	if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
		return rest, true
	}
	return "", false
}

// join places a path relative to dir in the tree.
func join(dir, p string) string {
	if dir == "" {
		return p
	}
	return dir + "/" + p
}
