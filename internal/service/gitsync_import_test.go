package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"quire/internal/blob"
	"quire/internal/gitremote"
	"quire/internal/quire"
	"quire/internal/store"
	"quire/internal/store/storetest"
	"quire/internal/testutil"
)

// countingBlobs is a blob store counting the bytes stored.
type countingBlobs struct {
	blob.Store
	mu    sync.Mutex
	puts  int
	bytes int64
}

// Put implements blob.Store.
func (c *countingBlobs) Put(ctx context.Context, r io.Reader, max int64) (string, int64, error) {
	key, n, err := c.Store.Put(ctx, r, max)
	c.mu.Lock()
	c.puts++
	c.bytes += n
	c.mu.Unlock()
	return key, n, err
}

// stored returns the puts and bytes counted since the last call.
func (c *countingBlobs) stored() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, b := c.puts, c.bytes
	c.puts, c.bytes = 0, 0
	return p, b
}

// gitFixture is a Git Sync service over one engine with a space to
// import into.
type gitFixture struct {
	git   *GitSync
	st    quire.Store
	blobs *countingBlobs
	user  *quire.User
	space string
	logs  *bytes.Buffer
	ts    int64
}

func newGitFixture(t *testing.T, st quire.Store, opts ...GitSyncOption) *gitFixture {
	t.Helper()
	files, err := blob.Open(t.Context(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	f := &gitFixture{st: st, blobs: &countingBlobs{Store: files}, logs: &bytes.Buffer{}}
	logger := slog.New(slog.NewTextHandler(f.logs, nil))
	svc := New(st, WithBlobs(f.blobs), WithLogger(logger))
	boot, err := svc.Bootstrap(t.Context(), BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	if f.user, err = st.User(t.Context(), boot.User); err != nil {
		t.Fatal(err)
	}
	sp, err := svc.CreateSpace(t.Context(), f.user, boot.Organization, SpaceInput{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	f.space = sp.Space.ID
	f.git = NewGitSync(svc, gitremote.New(gitremote.Options{AllowLocal: true, Logger: logger}), opts...)
	return f
}

// importFrom runs an import of url as the queue would and returns the
// space's record afterwards.
func (f *gitFixture) importFrom(t *testing.T, url, ref string) *quire.GitSync {
	t.Helper()
	box, err := f.git.sealer(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	f.ts += 1000
	job := GitJob{Space: f.space, User: f.user.ID, Direction: quire.GitImport, Ref: ref,
		SealedURL: box.Seal([]byte(url), []byte(f.space)), Timestamp: time.Now().UnixMilli() + f.ts}
	if err := f.git.RunJob(t.Context(), job); err != nil {
		t.Fatalf("run: %v", err)
	}
	rec, err := f.st.GitSync(t.Context(), f.space)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// freshStore opens an empty SQLite store, closed when the test ends.
func freshStore(t *testing.T) quire.Store {
	t.Helper()
	st, err := store.Open(t.Context(), store.Config{DataDir: storetest.MigratedSQLiteDir(t, store.SQLiteFile)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// noise returns n random bytes.
func noise(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func TestGitImportOfAWorkTreeStoresChangedFilesOnly(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newGitFixture(t, st)
		dir := t.TempDir()
		if _, err := git.PlainInit(dir, false); err != nil {
			t.Fatal(err)
		}
		video := noise(600 << 10)
		testutil.CommitFiles(t, dir, map[string][]byte{
			"README.md":                []byte("# Welcome\n\n![Clip](.gitbook/assets/clip.mp4)\n"),
			"SUMMARY.md":               []byte("# Table of contents\n\n* [Welcome](README.md)\n"),
			".gitbook/assets/clip.mp4": video,
		})
		// A repository with a work tree, its branch named in full.
		head := "refs/heads/master"
		rec := f.importFrom(t, "file://"+dir, head)
		if rec.State != quire.GitSuccess {
			t.Fatalf("import of a work tree: %s %s", rec.State, rec.Error)
		}
		if puts, n := f.blobs.stored(); puts != 1 || n != int64(len(video)) {
			t.Errorf("first import stored %d files, %d bytes; want the video's %d", puts, n, len(video))
		}
		if p := rec.Progress; p.Phase != gitPhaseStoring || p.Files != 1 || p.FilesTotal != 1 {
			t.Errorf("progress after the import: %+v", p)
		}

		// The same commit again: nothing is stored.
		if rec := f.importFrom(t, "file://"+dir, head); rec.State != quire.GitSuccess {
			t.Fatalf("re-import: %s", rec.Error)
		}
		if puts, n := f.blobs.stored(); puts != 0 {
			t.Errorf("re-import stored %d files, %d bytes; want none", puts, n)
		}

		// A new image and the video moved: only the image is stored.
		image := noise(300 << 10)
		if err := os.Remove(filepath.Join(dir, ".gitbook", "assets", "clip.mp4")); err != nil {
			t.Fatal(err)
		}
		repo, _ := git.PlainOpen(dir)
		wt, _ := repo.Worktree()
		if _, err := wt.Remove(".gitbook/assets/clip.mp4"); err != nil {
			t.Fatal(err)
		}
		testutil.CommitFiles(t, dir, map[string][]byte{
			"README.md":                      []byte("# Welcome\n\n![Clip](.gitbook/assets/video/clip.mp4)\n![Pic](.gitbook/assets/pic.bin)\n"),
			".gitbook/assets/video/clip.mp4": video,
			".gitbook/assets/pic.bin":        image,
		})
		if rec := f.importFrom(t, "file://"+dir, head); rec.State != quire.GitSuccess {
			t.Fatalf("import of the change: %s", rec.Error)
		}
		if puts, n := f.blobs.stored(); puts != 1 || n != int64(len(image)) {
			t.Errorf("import of the change stored %d files, %d bytes; want the image's %d", puts, n, len(image))
		}
		sp, err := st.Space(t.Context(), f.space)
		if err != nil {
			t.Fatal(err)
		}
		rev, err := st.Revision(t.Context(), f.space, sp.Revision)
		if err != nil {
			t.Fatal(err)
		}
		files, err := f.git.s.engine.Snapshot(st, rev).Files(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			r, _, err := f.blobs.Open(t.Context(), file.Blob)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(r)
			r.Close()
			want := map[string][]byte{"clip.mp4": video, "pic.bin": image}[file.Name]
			if !bytes.Equal(b, want) || file.Git == nil || !strings.HasPrefix(file.Git.Path, ".gitbook/assets/") {
				t.Errorf("file %s at %+v holds %d bytes, want %d", file.Name, file.Git, len(b), len(want))
			}
		}
	})
}

func TestGitImportFailuresNameTheirCause(t *testing.T) {
	t.Parallel()
	f := newGitFixture(t, freshStore(t))
	repo := t.TempDir()
	if _, err := git.PlainInit(repo, false); err != nil {
		t.Fatal(err)
	}
	testutil.CommitFiles(t, repo, map[string][]byte{"README.md": []byte("# R\n")})
	for _, c := range []struct{ what, url, ref, want string }{
		{"missing path", "file://" + filepath.Join(t.TempDir(), "gone"), "refs/heads/main", "the path does not exist"},
		{"plain directory", "file://" + t.TempDir(), "refs/heads/main", "is not a Git repository"},
		{"missing branch", "file://" + repo, "refs/heads/nope", `branch or tag "refs/heads/nope" not found`},
	} {
		rec := f.importFrom(t, c.url, c.ref)
		if rec.State != quire.GitFailure || !strings.Contains(rec.Error, c.want) || strings.Contains(rec.Error, "unreachable") {
			t.Errorf("%s: %s %q, want a failure saying %q", c.what, rec.State, rec.Error, c.want)
		}
		if !strings.Contains(f.logs.String(), strings.ReplaceAll(c.want, `"`, `\"`)) {
			t.Errorf("%s: the log does not say %q:\n%s", c.what, c.want, f.logs.String())
		}
	}

	quick := newGitFixture(t, freshStore(t), WithGitTimeout(time.Nanosecond))
	rec := quick.importFrom(t, "file://"+repo, "refs/heads/master")
	if rec.State != quire.GitFailure || !strings.Contains(rec.Error, "timed out after 0 s") {
		t.Errorf("out of time: %s %q", rec.State, rec.Error)
	}
}

func TestGitImportProgressIsRecorded(t *testing.T) {
	t.Parallel()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("the git binary serves the test repository")
	}
	f := newGitFixture(t, freshStore(t))
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if _, err := git.PlainInit(work, false); err != nil {
		t.Fatal(err)
	}
	asset := noise(2 << 20)
	testutil.CommitFiles(t, work, map[string][]byte{
		"README.md":                []byte("# Welcome\n"),
		".gitbook/assets/clip.bin": asset,
	})
	if _, err := git.PlainClone(filepath.Join(root, "repo.git"), true, &git.CloneOptions{URL: work}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(testutil.GitHTTPBackend(gitBin, root))
	t.Cleanup(srv.Close)
	rec := f.importFrom(t, srv.URL+"/repo.git", "refs/heads/master")
	if rec.State != quire.GitSuccess {
		t.Fatalf("import over HTTP: %s", rec.Error)
	}
	// The last progress told is kept: the storing of the one file, after
	// the whole pack was received.
	p := rec.Progress
	if p.Phase != gitPhaseStoring || p.Files != 1 || p.FilesTotal != 1 || p.Bytes < int64(len(asset)) ||
		p.ObjectsTotal == 0 {
		t.Errorf("progress: %+v", p)
	}
}
