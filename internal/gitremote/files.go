package gitremote

import (
	"path"
	"strings"
)

// Files is a repository tree: slash-separated path -> file bytes.
type Files map[string][]byte

// Checkout is one commit of a remote as read by Fetch.
type Checkout struct {
	// OID is the hash of the commit, in hexadecimal.
	OID string
	// Message is the commit message.
	Message string
	// Own is true when the commit carries this Remote's author identity:
	// an export made it.
	Own bool
	// Files holds the regular files under the directory asked for, their
	// paths relative to that directory. Symbolic links and submodules are
	// left out.
	Files Files
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
