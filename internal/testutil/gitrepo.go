package testutil

import (
	"io"
	"log"
	"net/http/cgi"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CommitFiles writes files (path → content) into the work tree of the
// repository at dir, made with git.PlainInit and not bare, and commits
// them on its current branch with a fixed author and date.
func CommitFiles(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	sig := &object.Signature{Name: "Seed", Email: "seed@example.com", When: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if _, err := wt.Commit("Seed", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

// GitHTTPBackend serves the repositories under root over Git's smart HTTP
// protocol with `git http-backend` (the binary at gitBin), quietly: tests
// and benchmarks start it as the remote a Git import reads.
func GitHTTPBackend(gitBin, root string) *cgi.Handler {
	return &cgi.Handler{
		Path:   gitBin,
		Args:   []string{"http-backend"},
		Env:    []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1"},
		Stderr: io.Discard,
		Logger: log.New(io.Discard, "", 0),
	}
}
