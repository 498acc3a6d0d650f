package gitremote_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/gitremote"

	"quire/internal/testutil"
)

// The system git binary plays the remote in these tests: it seeds
// repositories, serves them over smart HTTP and checks what was pushed.
// Quire itself never runs it.

// git runs the git binary in dir and returns its trimmed output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Seed", "GIT_AUTHOR_EMAIL=seed@example.com",
		"GIT_COMMITTER_NAME=Seed", "GIT_COMMITTER_EMAIL=seed@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// repo is a bare repository on disk made by a test.
type repo struct {
	root string // GIT_PROJECT_ROOT: the parent of the repository
	dir  string // the bare repository
}

// fileURL is the file:// URL of the repository.
func (r repo) fileURL() string { return "file://" + r.dir }

// newRepo creates an empty bare repository whose HEAD is main and which
// accepts pushes over HTTP.
func newRepo(t *testing.T) repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testutil.Missing(t, "the git binary serves the test repositories")
	}
	root := t.TempDir()
	r := repo{root: root, dir: filepath.Join(root, "repo.git")}
	git(t, root, "init", "--quiet", "--bare", "-b", "main", r.dir)
	git(t, r.dir, "config", "http.receivepack", "true")
	return r
}

// seededRepo creates a bare repository whose main branch holds files, and
// an annotated tag v1 on that commit.
func seededRepo(t *testing.T, files map[string]string) repo {
	t.Helper()
	r := newRepo(t)
	work := filepath.Join(r.root, "work")
	git(t, r.root, "init", "--quiet", "-b", "main", work)
	for p, s := range files {
		full := filepath.Join(work, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, work, "add", "-A")
	git(t, work, "commit", "--quiet", "-m", "Seed")
	git(t, work, "tag", "-a", "v1", "-m", "Version 1")
	git(t, work, "push", "--quiet", r.dir, "main", "v1")
	return r
}

// server serves the repositories under root over smart HTTP with git
// http-backend, asking for user and password when user is not empty, and
// counts the requests it gets.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

// serve starts a server for r, closed when the test ends.
func serve(t *testing.T, r repo, user, password string) *server {
	t.Helper()
	backend := testutil.GitHTTPBackend(mustGit(t), r.root)
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s.hits.Add(1)
		if user != "" {
			u, p, ok := req.BasicAuth()
			if !ok || u != user || p != password {
				w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
				http.Error(w, "authentication required", http.StatusUnauthorized)
				return
			}
		}
		backend.ServeHTTP(w, req)
	}))
	t.Cleanup(s.Close)
	return s
}

// mustGit is the path of the git binary.
func mustGit(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		testutil.Missing(t, "the git binary serves the test repositories")
	}
	return p
}

// logBuffer collects what a Remote logs.
type logBuffer struct{ bytes.Buffer }

// newRemote returns a Remote reaching local addresses, logging at debug
// level into logs when given, with a fixed clock.
func newRemote(logs *logBuffer, opts gitremote.Options) *gitremote.Remote {
	opts.AllowLocal = true
	if logs != nil {
		opts.Logger = slog.New(slog.NewTextHandler(&logs.Buffer, &slog.HandlerOptions{Level: slog.LevelDebug}))
	} else if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	return gitremote.New(opts)
}
