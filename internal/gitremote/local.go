package gitremote

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// gitDir finds the Git directory of the repository at dir: dir/.git in a
// work tree, the directory a .git file points to (a linked work tree or
// a submodule), or dir itself when it is a bare repository. Its errors
// are causes naming what is wrong with the path.
func gitDir(dir string) (billy.Filesystem, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, because("the path does not exist", ErrNotRepository, ErrUnreachable)
	case err != nil:
		return nil, because("the path cannot be read", ErrNotRepository, ErrUnreachable)
	case !fi.IsDir():
		return nil, because("the path is not a directory", ErrNotRepository, ErrUnreachable)
	}
	dotGit := filepath.Join(dir, ".git")
	if fi, err := os.Stat(dotGit); err == nil {
		if !fi.IsDir() {
			b, err := os.ReadFile(dotGit)
			target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if err != nil || !ok {
				return nil, because("the path's .git file names no Git directory", ErrNotRepository, ErrUnreachable)
			}
			dotGit = strings.TrimSpace(target)
			if !filepath.IsAbs(dotGit) {
				dotGit = filepath.Join(dir, dotGit)
			}
		}
		if isGitDir(dotGit) {
			return gitDirFS(dotGit), nil
		}
	}
	if isGitDir(dir) {
		return gitDirFS(dir), nil
	}
	return nil, because("the path is not a Git repository", ErrNotRepository, ErrUnreachable)
}

// isGitDir reports whether dir looks like a Git directory: a HEAD file
// and objects, or a commondir file leading to the objects of a main work
// tree.
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	for _, name := range []string{"objects", "commondir"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// gitDirFS is the file system of the Git directory dir, joined with the
// common directory of the main work tree when dir belongs to a linked
// one.
func gitDirFS(dir string) billy.Filesystem {
	own := osfs.New(dir)
	b, err := os.ReadFile(filepath.Join(dir, "commondir"))
	if err != nil {
		return own
	}
	common := strings.TrimSpace(string(b))
	if !filepath.IsAbs(common) {
		common = filepath.Join(dir, common)
	}
	return dotgit.NewRepositoryFilesystem(own, osfs.New(common))
}

// localRefs lists the references of a repository read in place as a
// remote would advertise them: the branches and tags, HEAD and the branch
// it stands for.
func localRefs(st storer.ReferenceStorer) (*packp.AdvRefs, error) {
	ar := packp.NewAdvRefs()
	iter, err := st.IterReferences()
	if err != nil {
		return nil, err
	}
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		if ref.Type() == plumbing.HashReference && ref.Name() != plumbing.HEAD {
			ar.References[ref.Name().String()] = ref.Hash()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	head, err := st.Reference(plumbing.HEAD)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		return ar, nil
	case err != nil:
		return nil, err
	case head.Type() == plumbing.SymbolicReference:
		if err := ar.Capabilities.Set(capability.SymRef, "HEAD:"+head.Target().String()); err != nil {
			return nil, err
		}
		if h, ok := ar.References[head.Target().String()]; ok {
			ar.Head = &h
		}
	default:
		h := head.Hash()
		ar.Head = &h
	}
	return ar, nil
}

// localLoader is the loader of the in-process file:// server: it finds
// the Git directory of work trees as well as of bare repositories.
type localLoader struct {
	open func(billy.Filesystem) storer.Storer
}

// Load implements server.Loader.
func (l localLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	dir, err := gitDir(ep.Path)
	if err != nil {
		return nil, transport.ErrRepositoryNotFound
	}
	return l.open(dir), nil
}
