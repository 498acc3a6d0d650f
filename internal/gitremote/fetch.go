package gitremote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"quire/internal/quire"
)

// Operations, as told in errors ("could not fetch <url>").
const (
	opFetch = "fetch"
	opPush  = "push to"
)

// FetchOptions says what Open reads and whom it tells how it goes.
type FetchOptions struct {
	// Ref is "" or HEAD for the remote's default branch, a full name
	// (refs/heads/main, refs/tags/v1), or a short name tried as a branch
	// then as a tag.
	Ref string
	// Dir is the directory whose files are read, "" for the whole tree;
	// a directory the commit does not have gives no files.
	Dir string
	// Inline reports whether the bytes of the file at path (relative to
	// Dir), of size bytes, are read into Checkout.Files; nil reads every
	// file. The others are read as streams with Checkout.Open.
	Inline func(path string, size int64) bool
	// Progress, when set, is told how the fetch goes, often: it should
	// return quickly.
	Progress func(Progress)
}

// Fetch reads the commit ref points at on the remote at url and returns
// the regular files under dir with their bytes; see FetchOptions for ref
// and dir. It is Open reading every file, closed at once.
//
// Errors are *quire.Error values naming the field at fault ("url", "ref",
// "dir") and wrapping a cause that matches ErrUnreachable, ErrTimeout,
// ErrNotRepository, ErrAuth, ErrRefNotFound, ErrObjectMissing or
// ErrTooLarge; they name the URL without its credentials.
func (r *Remote) Fetch(ctx context.Context, url, ref, dir string) (*Checkout, error) {
	co, err := r.Open(ctx, url, FetchOptions{Ref: ref, Dir: dir})
	if err != nil {
		return nil, err
	}
	return co, co.Close()
}

// Open reads the commit o.Ref points at on the remote at url: a network
// remote's pack (only that commit where the server can send a shallow
// pack) is written to a temporary directory and indexed there, a file://
// repository is read in place. The small files o.Inline picks come back
// in Checkout.Files, the others stay on disk to be read with
// Checkout.Open, and Close removes what was written. Errors are as
// Fetch's.
func (r *Remote) Open(ctx context.Context, url string, o FetchOptions) (*Checkout, error) {
	t, dir, err := r.args(url, o.Dir)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	p := &progress{report: o.Progress}
	st, h, cleanup, err := r.objects(ctx, t, o.Ref, p)
	if err != nil {
		return nil, err
	}
	co, err := r.read(ctx, t, st, h, o, dir, p)
	if err != nil {
		cleanup()
		return nil, err
	}
	co.close = cleanup
	return co, nil
}

// objects opens the objects of the remote t and resolves ref there. The
// cleanup returned closes them and removes what was written to disk.
func (r *Remote) objects(ctx context.Context, t *target, ref string, p *progress) (*filesystem.Storage, head, func() error, error) {
	if t.scheme == schemeFile {
		if r.local == nil {
			return nil, head{}, nil, r.failure(ctx, opFetch, t, errLocal)
		}
		fs, err := gitDir(t.endpoint.Path)
		if err != nil {
			return nil, head{}, nil, r.failure(ctx, opFetch, t, err)
		}
		st := openObjects(fs)
		ar, err := localRefs(st)
		if err != nil {
			st.Close()
			return nil, head{}, nil, r.failure(ctx, opFetch, t, err)
		}
		h, _ := resolve(ar, ref)
		return st, h, st.Close, nil
	}
	conn, err := r.connect(ctx, t)
	if err != nil {
		return nil, head{}, nil, r.failure(ctx, opFetch, t, err)
	}
	tmp, err := os.MkdirTemp(r.opts.TempDir, "quire-git-")
	if err != nil {
		return nil, head{}, nil, fmt.Errorf("git fetch: temporary directory: %w", err)
	}
	h, _, err := r.download(ctx, conn, ref, func(pack io.Reader) error {
		return receivePack(pack, tmp, r.opts.MaxBytes, p)
	}, false)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, head{}, nil, r.transferFailure(ctx, opFetch, t, err)
	}
	st := openObjects(osfs.New(tmp))
	return st, h, func() error { return errors.Join(st.Close(), os.RemoveAll(tmp)) }, nil
}

// read lists the tree of the commit h under dir and reads the files
// o.Inline picks.
func (r *Remote) read(ctx context.Context, t *target, st *filesystem.Storage, h head, o FetchOptions, dir string, p *progress) (*Checkout, error) {
	if h.hash.IsZero() {
		if o.Ref == "" {
			return nil, &quire.Error{Code: quire.EINVALID, Field: fieldRef, Message: "the repository at " + t.redacted + " is empty", Err: ErrRefNotFound}
		}
		return nil, refNotFound(t, o.Ref)
	}
	commit, err := peel(st, h.hash)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, objectMissing(t, h.hash.String(), "")
	}
	if err != nil {
		return nil, r.failure(ctx, opFetch, t, err)
	}
	p.now.Phase = PhaseReading
	p.tell()
	root, err := commit.Tree()
	if err != nil {
		return nil, r.transferFailure(ctx, opFetch, t, missingAt(err, commit.TreeHash, ""))
	}
	sizes := map[plumbing.Hash]int64{}
	if err := sizeTree(st, root, "", sizes, r.opts.MaxBytes); err != nil {
		return nil, r.transferFailure(ctx, opFetch, t, err)
	}
	tree := root
	if dir != "" {
		tree, err = root.Tree(dir)
		if errors.Is(err, object.ErrDirectoryNotFound) {
			tree = nil
		} else if err != nil {
			return nil, r.transferFailure(ctx, opFetch, t, err)
		}
	}
	entries := map[string]entry{}
	if tree != nil {
		if err := flatten(st, tree, "", entries, map[plumbing.Hash]bool{}, r.opts.MaxFiles); err != nil {
			return nil, r.transferFailure(ctx, opFetch, t, err)
		}
	}
	co := &Checkout{OID: commit.Hash.String(), Message: commit.Message, Files: Files{}, Blobs: map[string]Blob{},
		objects: st, redacted: t.redacted, dir: dir}
	co.Own = commit.Author.Email == r.opts.AuthorEmail && commit.Author.Name == r.opts.AuthorName
	left := r.opts.MaxBytes
	for path, e := range entries {
		if !isFile(e.mode) {
			continue
		}
		size := sizes[e.hash]
		co.Blobs[path] = Blob{OID: e.hash.String(), Size: size}
		if o.Inline != nil && !o.Inline(path, size) {
			continue
		}
		if left -= size; left < 0 {
			return nil, r.transferFailure(ctx, opFetch, t, errTooManyBytes)
		}
		b, err := readBlob(st, e.hash)
		if err != nil {
			return nil, r.transferFailure(ctx, opFetch, t, missingAt(err, e.hash, join(dir, path)))
		}
		co.Files[path] = b
	}
	return co, nil
}

// readBlob reads the bytes of the blob h.
func readBlob(st *filesystem.Storage, h plumbing.Hash) ([]byte, error) {
	blob, err := object.GetBlob(st, h)
	if err != nil {
		return nil, err
	}
	rd, err := blob.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// args checks the URL and directory arguments of Fetch and Push.
func (r *Remote) args(url, dir string) (*target, string, error) {
	t, ok := parseURL(url)
	if !ok {
		return nil, "", quire.Invalid(fieldURL, "%s is not an https, http, ssh or file URL of a Git repository", Redact(url))
	}
	if t.scheme == schemeFile && !r.opts.AllowLocal {
		return nil, "", quire.Invalid(fieldURL, "file URLs are not allowed")
	}
	d, ok := cleanDir(dir)
	if !ok {
		return nil, "", quire.Invalid(fieldDir, "%q is not a relative path inside the repository", dir)
	}
	t.began = time.Now()
	return t, d, nil
}

// transferFailure is failure, with the size caps and missing objects
// told as such.
func (r *Remote) transferFailure(ctx context.Context, op string, t *target, err error) error {
	var missing *missingError
	switch {
	case errors.Is(err, errPackTooLarge), errors.Is(err, errObjectsTooLarge), errors.Is(err, errTooManyBytes):
		r.opts.Logger.DebugContext(ctx, "git remote over the cap", "op", op, "url", t.redacted, "err", scrub(err, t))
		return tooLarge(fieldURL, fmt.Sprintf("the repository at %s is larger than %d bytes", t.redacted, r.opts.MaxBytes))
	case errors.Is(err, errTreeTooLarge):
		return tooLarge(fieldURL, fmt.Sprintf("the repository at %s has more than %d files", t.redacted, r.opts.MaxFiles))
	case errors.As(err, &missing):
		r.opts.Logger.DebugContext(ctx, "git object missing", "op", op, "url", t.redacted, "object", missing.hash, "path", missing.path)
		return objectMissing(t, missing.hash.String(), missing.path)
	}
	return r.failure(ctx, op, t, err)
}
