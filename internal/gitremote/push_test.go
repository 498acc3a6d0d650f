package gitremote_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"quire/internal/gitremote"
	"quire/internal/quire"
)

// show is the content of path at rev in the repository, as git sees it.
func show(t *testing.T, r repo, rev, path string) string {
	t.Helper()
	return git(t, r.dir, "show", rev+":"+path)
}

func TestPushReplacesDirectoryAndKeepsTheRest(t *testing.T) {
	eachTransport(t, func(t *testing.T) repo { return seededRepo(t, seed) }, func(t *testing.T, r repo, url string) {
		ctx := context.Background()
		rem := newRemote(nil, gitremote.Options{AuthorName: "Quire Test", AuthorEmail: "quire@example.com"})
		before := git(t, r.dir, "rev-parse", "main")
		files := gitremote.Files{"index.md": []byte("# New docs\n"), "new/page.md": []byte("Page\n")}

		oid, pushed, err := rem.Push(ctx, url, "main", "docs", files, "Update the docs")
		if err != nil || !pushed {
			t.Fatalf("push: %s, %v, %v", oid, pushed, err)
		}
		if got := git(t, r.dir, "rev-parse", "main"); got != oid {
			t.Fatalf("main is at %s, push said %s", got, oid)
		}
		if got := git(t, r.dir, "rev-parse", oid+"^"); got != before {
			t.Errorf("parent %s, want %s", got, before)
		}
		if got := git(t, r.dir, "log", "-1", "--format=%an <%ae>|%s", oid); got != "Quire Test <quire@example.com>|Update the docs" {
			t.Errorf("commit %q", got)
		}
		git(t, r.dir, "fsck", "--strict", "--no-progress")
		if got := show(t, r, "main", "README.md"); got != "# Project" {
			t.Errorf("README.md outside the directory became %q", got)
		}
		if got := git(t, r.dir, "ls-tree", "-r", "--name-only", "main"); got != strings.Join([]string{
			"README.md", "docs/index.md", "docs/new/page.md", "src/main.go",
		}, "\n") {
			t.Errorf("tree after push:\n%s", got)
		}

		co, err := rem.Fetch(ctx, url, "main", "docs")
		if err != nil {
			t.Fatal(err)
		}
		if co.OID != oid || co.Message != "Update the docs" || !co.Own {
			t.Errorf("fetched back %s %q, own %v", co.OID, co.Message, co.Own)
		}
		wantFiles(t, "fetched back", co.Files, map[string]string{"index.md": "# New docs\n", "new/page.md": "Page\n"})

		// The same files again change nothing and push nothing.
		again, pushed, err := rem.Push(ctx, url, "main", "docs", files, "Update the docs again")
		if err != nil || pushed || again != oid {
			t.Errorf("unchanged push: %s, pushed %v, %v; want %s, false", again, pushed, err, oid)
		}
		if got := git(t, r.dir, "rev-parse", "main"); got != oid {
			t.Errorf("main moved to %s on an unchanged push", got)
		}
	})
}

func TestPushWholeTree(t *testing.T) {
	eachTransport(t, func(t *testing.T) repo { return seededRepo(t, seed) }, func(t *testing.T, r repo, url string) {
		rem := newRemote(nil, gitremote.Options{})
		oid, pushed, err := rem.Push(context.Background(), url, "", "", gitremote.Files{"only.md": []byte("x")}, "Replace everything")
		if err != nil || !pushed {
			t.Fatalf("push: %v %v", pushed, err)
		}
		if got := git(t, r.dir, "ls-tree", "-r", "--name-only", oid); got != "only.md" {
			t.Errorf("tree %q", got)
		}
	})
}

func TestPushToEmptyRepository(t *testing.T) {
	eachTransport(t, newRepo, func(t *testing.T, r repo, url string) {
		ctx := context.Background()
		rem := newRemote(nil, gitremote.Options{})
		files := gitremote.Files{"a.md": []byte("A\n"), "b/c.md": []byte("C\n")}
		oid, pushed, err := rem.Push(ctx, url, "", "content", files, "First")
		if err != nil || !pushed {
			t.Fatalf("push: %v %v", pushed, err)
		}
		if got := git(t, r.dir, "rev-parse", "refs/heads/main"); got != oid {
			t.Errorf("main at %s, want %s", got, oid)
		}
		if got := git(t, r.dir, "rev-list", "--count", oid); got != "1" {
			t.Errorf("%s commits, want a first commit", got)
		}
		git(t, r.dir, "fsck", "--strict", "--no-progress")
		co, err := rem.Fetch(ctx, url, "", "content")
		if err != nil {
			t.Fatal(err)
		}
		wantFiles(t, "fetched back", co.Files, map[string]string{"a.md": "A\n", "b/c.md": "C\n"})
	})
}

func TestPushCreatesBranch(t *testing.T) {
	eachTransport(t, func(t *testing.T) repo { return seededRepo(t, seed) }, func(t *testing.T, r repo, url string) {
		ctx := context.Background()
		rem := newRemote(nil, gitremote.Options{})
		main := git(t, r.dir, "rev-parse", "main")
		oid, pushed, err := rem.Push(ctx, url, "refs/heads/feature/x", "docs", gitremote.Files{"f.md": []byte("F")}, "Start a branch")
		if err != nil || !pushed {
			t.Fatalf("push: %v %v", pushed, err)
		}
		if got := git(t, r.dir, "rev-parse", "refs/heads/feature/x"); got != oid {
			t.Errorf("feature/x at %s, want %s", got, oid)
		}
		if got := git(t, r.dir, "rev-parse", "main"); got != main {
			t.Errorf("main moved to %s", got)
		}
		if got := show(t, r, "feature/x", "docs/f.md"); got != "F" {
			t.Errorf("docs/f.md = %q", got)
		}
		// Pushing again by its short name moves it on.
		next, pushed, err := rem.Push(ctx, url, "feature/x", "docs", gitremote.Files{"f.md": []byte("G")}, "More")
		if err != nil || !pushed {
			t.Fatalf("second push: %v %v", pushed, err)
		}
		if got := git(t, r.dir, "rev-parse", next+"^"); got != oid {
			t.Errorf("parent %s, want %s", got, oid)
		}
	})
}

func TestPushRefusesBadArguments(t *testing.T) {
	r := seededRepo(t, seed)
	rem := newRemote(nil, gitremote.Options{})
	ctx := context.Background()
	url := r.fileURL()
	ok := gitremote.Files{"a.md": []byte("A")}
	for _, c := range []struct {
		what, ref, dir string
		files          gitremote.Files
		message, field string
	}{
		{"directory leaving the tree", "main", "../x", ok, "m", "dir"},
		{"directory into .git", "main", "a/.git", ok, "m", "dir"},
		{"file path leaving the directory", "main", "docs", gitremote.Files{"../a.md": nil}, "m", "files"},
		{"absolute file path", "main", "docs", gitremote.Files{"/a.md": nil}, "m", "files"},
		{"unclean file path", "main", "docs", gitremote.Files{"a//b.md": nil}, "m", "files"},
		{"file and directory of one name", "main", "docs", gitremote.Files{"a": nil, "a/b": nil}, "m", "files"},
		{"tag", "refs/tags/v1", "docs", ok, "m", "ref"},
		{"tag by short name", "v1", "docs", ok, "m", "ref"},
		{"bad branch name", "a..b", "docs", ok, "m", "ref"},
		{"no message", "main", "docs", ok, " ", "message"},
	} {
		_, _, err := rem.Push(ctx, url, c.ref, c.dir, c.files, c.message)
		wantInvalid(t, c.what, err, c.field, nil)
	}
	if got := git(t, r.dir, "for-each-ref", "--format=%(refname)"); got != "refs/heads/main\nrefs/tags/v1" {
		t.Errorf("refs changed: %s", got)
	}
}

func TestPushWhenTheBranchMoves(t *testing.T) {
	r := seededRepo(t, seed)
	work := filepath.Join(r.root, "work")
	if err := os.WriteFile(filepath.Join(work, "other.md"), []byte("other"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "add", "-A")
	git(t, work, "commit", "--quiet", "-m", "Someone else")
	moved := git(t, work, "rev-parse", "HEAD")

	// The server lets the other commit in between the read of the branch
	// and the push.
	inner := serve(t, r, "", "")
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Query().Get("service") == "git-receive-pack" {
			once.Do(func() { git(t, work, "push", "--quiet", r.dir, "main") })
		}
		inner.Config.Handler.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)

	rem := newRemote(nil, gitremote.Options{})
	_, _, err := rem.Push(context.Background(), srv.URL+"/repo.git", "main", "docs", gitremote.Files{"a.md": []byte("A")}, "m")
	if !quire.IsStale(err) {
		t.Fatalf("got %v, want a stale error", err)
	}
	if got := git(t, r.dir, "rev-parse", "main"); got != moved {
		t.Errorf("main at %s, want the other commit %s", got, moved)
	}
}

func TestPushKeepsModesAndLinks(t *testing.T) {
	r := newRepo(t)
	work := filepath.Join(r.root, "work")
	git(t, r.root, "init", "--quiet", "-b", "main", work)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(work, "docs"), 0o755))
	must(os.WriteFile(filepath.Join(work, "docs", "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(os.WriteFile(filepath.Join(work, "docs", "page.md"), []byte("Page\n"), 0o644))
	must(os.Symlink("page.md", filepath.Join(work, "docs", "link.md")))
	must(os.Symlink("docs", filepath.Join(work, "other")))
	git(t, work, "add", "-A")
	git(t, work, "commit", "--quiet", "-m", "Seed")
	git(t, work, "push", "--quiet", r.dir, "main")
	before := git(t, r.dir, "rev-parse", "main")

	ctx := context.Background()
	rem := newRemote(nil, gitremote.Options{})
	url := r.fileURL()
	co, err := rem.Fetch(ctx, url, "main", "docs")
	if err != nil {
		t.Fatal(err)
	}
	wantFiles(t, "regular files only", co.Files, map[string]string{"run.sh": "#!/bin/sh\n", "page.md": "Page\n"})

	// What was fetched, pushed back, changes nothing.
	oid, pushed, err := rem.Push(ctx, url, "main", "docs", co.Files, "Nothing new")
	if err != nil || pushed || oid != before {
		t.Fatalf("round trip: %s %v %v; want %s, nothing pushed", oid, pushed, err, before)
	}

	co.Files["run.sh"] = []byte("#!/bin/sh\necho hi\n")
	oid, pushed, err = rem.Push(ctx, url, "main", "docs", co.Files, "Edit the script")
	if err != nil || !pushed {
		t.Fatalf("push: %v %v", pushed, err)
	}
	want := strings.Join([]string{
		"120000 docs/link.md",
		"100644 docs/page.md",
		"100755 docs/run.sh",
		"120000 other",
	}, "\n")
	if got := git(t, r.dir, "ls-tree", "-r", "--format=%(objectmode) %(path)", oid); got != want {
		t.Errorf("tree after push:\n%s\nwant\n%s", got, want)
	}

	// A new file where a link was takes its place.
	oid, _, err = rem.Push(ctx, url, "main", "docs", gitremote.Files{"link.md": []byte("now a file")}, "Replace the link")
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, r.dir, "ls-tree", "-r", "--format=%(objectmode) %(path)", oid); got != "100644 docs/link.md\n120000 other" {
		t.Errorf("tree after replacing the link:\n%s", got)
	}
}
