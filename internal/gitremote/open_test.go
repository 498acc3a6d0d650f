package gitremote_test

import (
	"context"
	"crypto/rand"
	"io"
	"os"
	"strings"
	"testing"

	gogit "github.com/go-git/go-git/v5"

	"quire/internal/gitremote"
	"quire/internal/testutil"
)

func TestOpenStreamsLargeFilesFromDisk(t *testing.T) {
	noise := make([]byte, 3<<20)
	rand.Read(noise)
	r := seededRepo(t, map[string]string{"README.md": "# Hi\n", "assets/video.mp4": string(noise)})
	blobOID := git(t, r.dir, "rev-parse", "main:assets/video.mp4")
	transports(t, r, func(t *testing.T, url string) {
		tmp := t.TempDir()
		rem := newRemote(nil, gitremote.Options{TempDir: tmp})
		var seen []gitremote.Progress
		co, err := rem.Open(context.Background(), url, gitremote.FetchOptions{
			Ref:      "main",
			Inline:   func(p string, size int64) bool { return strings.HasSuffix(p, ".md") },
			Progress: func(p gitremote.Progress) { seen = append(seen, p) },
		})
		if err != nil {
			t.Fatal(err)
		}
		wantFiles(t, "inline files", co.Files, map[string]string{"README.md": "# Hi\n"})
		if b := co.Blobs["assets/video.mp4"]; b.OID != blobOID || b.Size != int64(len(noise)) {
			t.Errorf("blob of the video: %+v, want %s of %d bytes", b, blobOID, len(noise))
		}
		if b := co.Blobs["README.md"]; b.Size != 5 {
			t.Errorf("blob of the README: %+v", b)
		}
		rc, err := co.Open("assets/video.mp4")
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(got) != string(noise) {
			t.Fatalf("streamed %d bytes (%v), want the %d of the video", len(got), err, len(noise))
		}
		if _, err := co.Open("nowhere.png"); err == nil {
			t.Errorf("a path not in the tree opened")
		}
		phases := map[gitremote.Phase]gitremote.Progress{}
		for _, p := range seen {
			phases[p.Phase] = p
		}
		if _, ok := phases[gitremote.PhaseReading]; !ok {
			t.Errorf("no reading phase told: %+v", seen)
		}
		if strings.HasPrefix(url, "http") {
			rec := phases[gitremote.PhaseReceiving]
			if rec.Objects == 0 || rec.Objects != rec.ObjectsTotal || rec.Bytes < int64(len(noise)) {
				t.Errorf("receiving: %+v, want every object and at least %d bytes", rec, len(noise))
			}
			if idx := phases[gitremote.PhaseIndexing]; idx.Objects != rec.ObjectsTotal {
				t.Errorf("indexing: %+v, want %d objects", idx, rec.ObjectsTotal)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) != 1 {
				t.Errorf("the pack is not kept under the temporary directory while open: %v", entries)
			}
		}
		if err := co.Close(); err != nil {
			t.Fatal(err)
		}
		if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
			t.Errorf("Close left %v", entries)
		}
		if _, err := co.Open("assets/video.mp4"); err == nil {
			t.Errorf("a closed checkout opened a file")
		}
	})
}

// workTree makes a repository with a work tree (not bare) with go-git,
// whose main branch holds files, and returns its directory.
func workTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	repo, err := gogit.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	data := make(map[string][]byte, len(files))
	for p, s := range files {
		data[p] = []byte(s)
	}
	testutil.CommitFiles(t, dir, data)
	head, err := repo.Head()
	if err != nil || head.Name().String() != "refs/heads/master" && head.Name().String() != "refs/heads/main" {
		t.Fatalf("head %v %v", head, err)
	}
	return dir
}

func TestFetchFromWorkTree(t *testing.T) {
	dir := workTree(t, map[string]string{"README.md": "# Work tree\n", "docs/a.md": "A\n"})
	repo, err := gogit.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := repo.Head()
	rem := newRemote(nil, gitremote.Options{})
	for _, ref := range []string{"", head.Name().String(), head.Name().Short()} {
		co, err := rem.Fetch(context.Background(), "file://"+dir, ref, "")
		if err != nil {
			t.Fatalf("ref %q: %v", ref, err)
		}
		if co.OID != head.Hash().String() {
			t.Errorf("ref %q: commit %s, want %s", ref, co.OID, head.Hash())
		}
		wantFiles(t, "work tree", co.Files, map[string]string{"README.md": "# Work tree\n", "docs/a.md": "A\n"})
	}
	// Pushing to it updates the branch (the work tree stays as it was).
	oid, pushed, err := rem.Push(context.Background(), "file://"+dir, head.Name().Short(), "", gitremote.Files{"new.md": []byte("N")}, "Add")
	if err != nil || !pushed {
		t.Fatalf("push to a work tree: %v", err)
	}
	co, err := rem.Fetch(context.Background(), "file://"+dir, head.Name().Short(), "")
	if err != nil || co.OID != oid {
		t.Fatalf("fetch after push: %v %v", co, err)
	}
}
