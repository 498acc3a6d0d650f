package gitremote

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"quire/internal/quire"
)

// Operations, as told in errors ("could not fetch <url>").
const (
	opFetch = "fetch"
	opPush  = "push to"
)

// Fetch reads the commit ref points at on the remote at url and returns
// the regular files under dir. ref is "" or HEAD for the remote's default
// branch, a full name (refs/heads/main, refs/tags/v1), or a short name
// tried as a branch then as a tag. dir is "" for the whole tree; a
// directory the commit does not have gives no files.
//
// Errors are *quire.Error values naming the field at fault ("url", "ref",
// "dir") and wrapping ErrUnreachable, ErrAuth, ErrRefNotFound or
// ErrTooLarge; they name the URL without its credentials.
func (r *Remote) Fetch(ctx context.Context, url, ref, dir string) (*Checkout, error) {
	t, dir, err := r.args(url, dir)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	conn, err := r.connect(ctx, t)
	if err != nil {
		return nil, r.failure(ctx, opFetch, t, err)
	}
	st := newStore(r.opts.MaxBytes)
	h, _, err := r.download(ctx, conn, ref, st, false)
	if err != nil {
		return nil, r.transferFailure(ctx, opFetch, t, err)
	}
	if h.hash.IsZero() {
		if ref == "" {
			return nil, &quire.Error{Code: quire.EINVALID, Field: fieldRef, Message: "the repository at " + t.redacted + " is empty", Err: ErrRefNotFound}
		}
		return nil, refNotFound(t, ref)
	}
	commit, err := peel(st, h.hash)
	if err != nil {
		return nil, r.failure(ctx, opFetch, t, err)
	}
	files, err := r.checkout(st, commit, dir)
	if err != nil {
		return nil, r.transferFailure(ctx, opFetch, t, err)
	}
	own := commit.Author.Email == r.opts.AuthorEmail && commit.Author.Name == r.opts.AuthorName
	return &Checkout{OID: commit.Hash.String(), Message: commit.Message, Own: own, Files: files}, nil
}

// checkout reads the regular files under dir in commit's tree.
func (r *Remote) checkout(st *store, commit *object.Commit, dir string) (Files, error) {
	tree, err := commit.Tree()
	if err != nil {
		return nil, err
	}
	if dir != "" {
		tree, err = tree.Tree(dir)
		if errors.Is(err, object.ErrDirectoryNotFound) {
			return Files{}, nil
		}
		if err != nil {
			return nil, err
		}
	}
	entries := map[string]entry{}
	if err := flatten(st, tree, "", entries, map[plumbing.Hash]bool{}, r.opts.MaxFiles); err != nil {
		return nil, err
	}
	return readFiles(st, entries, "", r.opts.MaxBytes)
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
	return t, d, nil
}

// transferFailure is failure, with the size caps told as such.
func (r *Remote) transferFailure(ctx context.Context, op string, t *target, err error) error {
	switch {
	case errors.Is(err, errPackTooLarge), errors.Is(err, errObjectsTooLarge), errors.Is(err, errTooManyBytes):
		r.opts.Logger.DebugContext(ctx, "git remote over the cap", "op", op, "url", t.redacted, "err", scrub(err, t))
		return tooLarge(fieldURL, fmt.Sprintf("the repository at %s is larger than %d bytes", t.redacted, r.opts.MaxBytes))
	case errors.Is(err, errTreeTooLarge):
		return tooLarge(fieldURL, fmt.Sprintf("the repository at %s has more than %d files", t.redacted, r.opts.MaxFiles))
	}
	return r.failure(ctx, op, t, err)
}
