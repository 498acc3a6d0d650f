package gitremote

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// peel follows annotated tags from h to the commit they name.
func peel(s storer.EncodedObjectStorer, h plumbing.Hash) (*object.Commit, error) {
	for range 10 {
		obj, err := s.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return nil, err
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return object.DecodeCommit(s, obj)
		case plumbing.TagObject:
			tag, err := object.DecodeTag(s, obj)
			if err != nil {
				return nil, err
			}
			h = tag.Target
		default:
			return nil, fmt.Errorf("ref points at a %s", obj.Type())
		}
	}
	return nil, errors.New("tag chain too long")
}

// entry is one non-tree entry of a flattened tree.
type entry struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

// errTreeTooLarge is the cause of a tree over the file cap.
var errTreeTooLarge = errors.New("tree over the file cap")

// flatten lists every non-tree entry of tree by full path, and records the
// hash of every tree and blob it reaches in seen. It stops with
// errTreeTooLarge past maxEntries entries.
func flatten(s storer.EncodedObjectStorer, tree *object.Tree, prefix string, out map[string]entry, seen map[plumbing.Hash]bool, maxEntries int) error {
	seen[tree.Hash] = true
	for _, e := range tree.Entries {
		p := e.Name
		if prefix != "" {
			p = prefix + "/" + e.Name
		}
		if e.Mode == filemode.Dir {
			sub, err := object.GetTree(s, e.Hash)
			if err != nil {
				return missingAt(err, e.Hash, p)
			}
			if err := flatten(s, sub, p, out, seen, maxEntries); err != nil {
				return err
			}
			continue
		}
		if len(out) >= maxEntries {
			return errTreeTooLarge
		}
		out[p] = entry{mode: e.Mode, hash: e.Hash}
		if e.Mode != filemode.Submodule {
			seen[e.Hash] = true
		}
	}
	return nil
}

// isFile reports whether mode is a regular file's.
func isFile(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// sizeTree records the size of every blob of tree (and the trees below
// it) in sizes, failing with errTooManyBytes once they add up to more
// than max bytes, and with a *missingError for an object the repository
// lacks. Each object is counted once, however many paths hold it.
func sizeTree(s interface {
	storer.EncodedObjectStorer
	EncodedObjectSize(plumbing.Hash) (int64, error)
}, tree *object.Tree, prefix string, sizes map[plumbing.Hash]int64, max int64) error {
	total := int64(0)
	seen := map[plumbing.Hash]bool{}
	var walk func(tree *object.Tree, prefix string) error
	walk = func(tree *object.Tree, prefix string) error {
		for _, e := range tree.Entries {
			p := join(prefix, e.Name)
			switch {
			case e.Mode == filemode.Dir:
				if seen[e.Hash] {
					continue
				}
				seen[e.Hash] = true
				sub, err := object.GetTree(s, e.Hash)
				if err != nil {
					return missingAt(err, e.Hash, p)
				}
				if err := walk(sub, p); err != nil {
					return err
				}
			case isFile(e.Mode):
				if _, ok := sizes[e.Hash]; ok {
					continue
				}
				n, err := s.EncodedObjectSize(e.Hash)
				if err != nil {
					return missingAt(err, e.Hash, p)
				}
				sizes[e.Hash] = n
				if total += n; total > max {
					return errTooManyBytes
				}
			}
		}
		return nil
	}
	return walk(tree, prefix)
}

// missingError is an object the repository lacks, at a path of the tree.
type missingError struct {
	hash plumbing.Hash
	path string
}

// Error implements error.
func (e *missingError) Error() string {
	return "object " + e.hash.String() + " of " + e.path + " missing"
}

// missingAt turns go-git's object-not-found error about h, at path, into
// a *missingError; other errors pass unchanged.
func missingAt(err error, h plumbing.Hash, path string) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return &missingError{hash: h, path: path}
	}
	return err
}

// errTooManyBytes is the cause of files over the byte cap.
var errTooManyBytes = errors.New("files over the byte cap")

// node is a directory of the tree being built.
type node struct {
	files map[string]entry
	dirs  map[string]*node
}

// buildTree writes the trees holding entries into s and returns the hash
// of the root; created receives the hash of every object written that
// seen does not hold.
func buildTree(s storer.EncodedObjectStorer, entries map[string]entry, seen map[plumbing.Hash]bool, created *[]plumbing.Hash) (plumbing.Hash, error) {
	root := &node{files: map[string]entry{}, dirs: map[string]*node{}}
	for p, e := range entries {
		n := root
		segs := strings.Split(p, "/")
		for _, seg := range segs[:len(segs)-1] {
			sub, ok := n.dirs[seg]
			if !ok {
				sub = &node{files: map[string]entry{}, dirs: map[string]*node{}}
				n.dirs[seg] = sub
			}
			n = sub
		}
		n.files[segs[len(segs)-1]] = e
	}
	return writeNode(s, root, seen, created)
}

// writeNode writes n and the trees below it, children first.
func writeNode(s storer.EncodedObjectStorer, n *node, seen map[plumbing.Hash]bool, created *[]plumbing.Hash) (plumbing.Hash, error) {
	t := &object.Tree{}
	for name, e := range n.files {
		if _, clash := n.dirs[name]; clash {
			return plumbing.ZeroHash, &clashError{name: name}
		}
		t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: e.mode, Hash: e.hash})
	}
	for name, sub := range n.dirs {
		h, err := writeNode(s, sub, seen, created)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	// Git orders entries by name, a directory's name compared as if it
	// ended with a slash.
	sortKey := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(t.Entries, func(i, j int) bool { return sortKey(t.Entries[i]) < sortKey(t.Entries[j]) })
	obj := s.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return put(s, obj, seen, created)
}

// put stores obj and records it in created unless seen already holds it.
func put(s storer.EncodedObjectStorer, obj plumbing.EncodedObject, seen map[plumbing.Hash]bool, created *[]plumbing.Hash) (plumbing.Hash, error) {
	h, err := s.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if !seen[h] {
		seen[h] = true
		*created = append(*created, h)
	}
	return h, nil
}

// replaceDir puts blobs (paths relative to dir) in place of what entries
// holds under dir. Regular files under dir go; symbolic links and
// submodules there stay (Fetch does not return them, so a tree fetched and
// pushed back unchanged stays unchanged) unless a new path takes their
// place. A file that was executable stays executable.
func replaceDir(entries map[string]entry, dir string, blobs map[string]plumbing.Hash) {
	added := make(map[string]bool, len(blobs))
	dirs := map[string]bool{}
	for p := range blobs {
		full := join(dir, p)
		added[full] = true
		for d := path.Dir(full); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	executable := map[string]bool{}
	for p, e := range entries {
		if _, in := under(dir, p); !in && (p != dir || len(blobs) == 0) {
			continue
		}
		if e.mode == filemode.Executable {
			executable[p] = true
		}
		if isFile(e.mode) || dirs[p] || added[p] || belowAny(p, added) {
			delete(entries, p)
		}
	}
	for p, h := range blobs {
		full := join(dir, p)
		mode := filemode.Regular
		if executable[full] {
			mode = filemode.Executable
		}
		entries[full] = entry{mode: mode, hash: h}
	}
}

// belowAny reports whether a directory above p is one of paths.
func belowAny(p string, paths map[string]bool) bool {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if paths[d] {
			return true
		}
	}
	return false
}

// clashError is a tree asked to hold a file and a directory of one name.
type clashError struct{ name string }

// Error implements error.
func (e *clashError) Error() string {
	return strconv.Quote(e.name) + " would be both a file and a directory"
}
