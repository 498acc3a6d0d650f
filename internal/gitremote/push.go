package gitremote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"

	"quire/internal/quire"
)

// pushMemoryCap bounds the bytes of the objects a push holds in memory:
// the current commit's tree, read before writing on top of it.
const pushMemoryCap = 1 << 30

// Push writes files under dir on the branch ref of the remote at url, as
// one commit with message on top of the branch's current commit, or as a
// first commit when the branch or the repository is empty. The regular
// files under dir are replaced by files (paths relative to dir, written
// as regular files, executable where the file they replace was); what
// lies outside dir is kept as it was, and so are symbolic links and
// submodules under dir that no path of files displaces. A branch that
// does not exist yet is created with a first commit holding only files. ref is a branch, short (main) or full
// (refs/heads/main), or "" for the remote's default branch (main in an
// empty repository).
//
// It returns the commit the branch ends on and whether it pushed one: when
// the resulting tree is the one the branch already has, nothing is pushed
// and oid is the current commit. A branch that moved while pushing gives
// a quire.Stale error; other errors are as Fetch's, with "files" and
// "message" for bad arguments and ErrRejected when the remote refused the
// update.
func (r *Remote) Push(ctx context.Context, url, ref, dir string, files Files, message string) (oid string, pushed bool, err error) {
	t, dir, err := r.args(url, dir)
	if err != nil {
		return "", false, err
	}
	if strings.TrimSpace(message) == "" {
		return "", false, quire.Invalid("message", "must not be empty")
	}
	if err := r.checkFiles(files); err != nil {
		return "", false, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	conn, err := r.connect(ctx, t)
	if err != nil {
		return "", false, r.failure(ctx, opPush, t, err)
	}
	st := newStore(min(2*r.opts.MaxBytes, pushMemoryCap))
	h, ok, err := r.download(ctx, conn, ref, st.into, true)
	if err != nil {
		return "", false, r.transferFailure(ctx, opPush, t, err)
	}
	if !ok {
		return "", false, quire.Invalid(fieldRef, "%q is not a branch", ref)
	}

	// The current tree, flattened; what lies under dir gives way to files.
	entries := map[string]entry{}
	seen := map[plumbing.Hash]bool{}
	var parent *object.Commit
	if !h.hash.IsZero() {
		if parent, err = peel(st, h.hash); err != nil {
			return "", false, r.failure(ctx, opPush, t, err)
		}
		if parent.Hash != h.hash {
			return "", false, quire.Invalid(fieldRef, "%q is not a branch", ref)
		}
		tree, err := parent.Tree()
		if err != nil {
			return "", false, r.failure(ctx, opPush, t, err)
		}
		if err := flatten(st, tree, "", entries, seen, r.opts.MaxFiles); err != nil {
			return "", false, r.transferFailure(ctx, opPush, t, err)
		}
	}
	var created []plumbing.Hash
	blobs := make(map[string]plumbing.Hash, len(files))
	for p, b := range files {
		hash, err := putBlob(st, b, seen, &created)
		if err != nil {
			return "", false, r.transferFailure(ctx, opPush, t, err)
		}
		blobs[p] = hash
	}
	replaceDir(entries, dir, blobs)
	if len(entries) > r.opts.MaxFiles {
		return "", false, tooLarge(fieldFiles, fmt.Sprintf("the repository would have more than %d files", r.opts.MaxFiles))
	}
	root, err := buildTree(st, entries, seen, &created)
	var clash *clashError
	if errors.As(err, &clash) {
		return "", false, quire.Invalid(fieldFiles, "%s", clash.Error())
	}
	if err != nil {
		return "", false, r.transferFailure(ctx, opPush, t, err)
	}
	if parent != nil && parent.TreeHash == root {
		return parent.Hash.String(), false, nil
	}

	commit, err := r.commit(st, root, parent, message, seen, &created)
	if err != nil {
		return "", false, r.failure(ctx, opPush, t, err)
	}
	if err := r.send(ctx, conn, st, h, commit, created); err != nil {
		var qe *quire.Error
		if errors.As(err, &qe) {
			return "", false, qe
		}
		return "", false, r.transferFailure(ctx, opPush, t, err)
	}
	return commit.String(), true, nil
}

// putBlob stores b as a blob.
func putBlob(st *store, b []byte, seen map[plumbing.Hash]bool, created *[]plumbing.Hash) (plumbing.Hash, error) {
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(b)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(b); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return put(st, obj, seen, created)
}

// checkFiles refuses paths that are not clean relative paths, and more
// files or bytes than the caps.
func (r *Remote) checkFiles(files Files) error {
	if len(files) > r.opts.MaxFiles {
		return tooLarge(fieldFiles, fmt.Sprintf("at most %d files may be pushed", r.opts.MaxFiles))
	}
	var total int64
	for p, b := range files {
		if !validPath(p) {
			return quire.Invalid(fieldFiles, "%q is not a relative path inside the directory", p)
		}
		total += int64(len(b))
	}
	if total > r.opts.MaxBytes {
		return tooLarge(fieldFiles, fmt.Sprintf("the files pushed may total at most %d bytes", r.opts.MaxBytes))
	}
	return nil
}

// commit writes the commit of tree on top of parent (nil for a first
// commit), signed with the configured author.
func (r *Remote) commit(st *store, tree plumbing.Hash, parent *object.Commit, message string, seen map[plumbing.Hash]bool, created *[]plumbing.Hash) (plumbing.Hash, error) {
	sig := object.Signature{Name: r.opts.AuthorName, Email: r.opts.AuthorEmail, When: r.opts.Now()}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: tree}
	if parent != nil {
		c.ParentHashes = []plumbing.Hash{parent.Hash}
	}
	obj := st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return put(st, obj, seen, created)
}

// send updates the branch from h to commit with receive-pack, sending the
// objects created. The branch must still be where download found it.
func (r *Remote) send(ctx context.Context, c *connection, st *store, h head, commit plumbing.Hash, created []plumbing.Hash) error {
	sess, err := c.receivePack(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil {
		return err
	}
	if now := ar.References[h.name.String()]; now != h.hash {
		return quire.Stale("the branch %s moved on the remote while pushing", h.name.Short())
	}
	req := packp.NewReferenceUpdateRequestFromCapabilities(ar.Capabilities)
	req.Commands = []*packp.Command{{Name: h.name, Old: h.hash, New: commit}}
	useRefDeltas := !ar.Capabilities.Supports(capability.OFSDelta)

	rd, wr := io.Pipe()
	req.Packfile = rd
	done := make(chan error, 1)
	go func() {
		// No delta search (window 0): the objects sent are the files a
		// sync changed, mostly images and other compressed media, where a
		// search over every pair of similar size costs minutes and
		// gigabytes for a few bytes saved, and sends nothing meanwhile.
		_, err := packfile.NewEncoder(wr, st, useRefDeltas).Encode(created, 0)
		wr.CloseWithError(err)
		done <- err
	}()
	rs, err := sess.ReceivePack(ctx, req)
	rd.Close()
	if encErr := <-done; err == nil && encErr != nil {
		err = encErr
	}
	if rs != nil {
		if statusErr := rs.Error(); statusErr != nil {
			r.opts.Logger.DebugContext(ctx, "git push rejected", "ref", h.name.String(), "err", statusErr)
			return &quire.Error{Code: quire.EINVALID, Field: fieldRef, Message: "the remote refused the update of " + h.name.Short(), Err: ErrRejected}
		}
	}
	return err
}
