package gitremote_test

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"

	"quire/internal/gitremote"
)

func TestSizeCaps(t *testing.T) {
	r := seededRepo(t, map[string]string{
		"a.md":      "A",
		"b.md":      "B",
		"docs/c.md": "C",
		"big.bin":   strings.Repeat("0123456789", 10_000),
	})
	url := r.fileURL()
	ctx := context.Background()

	few := newRemote(nil, gitremote.Options{MaxFiles: 3})
	_, err := few.Fetch(ctx, url, "", "")
	wantInvalid(t, "fetch of too many files", err, "url", gitremote.ErrTooLarge)
	if co, err := few.Fetch(ctx, url, "", "docs"); err != nil || len(co.Files) != 1 {
		t.Errorf("fetch of a small directory: %v", err)
	}
	_, _, err = few.Push(ctx, url, "main", "docs", gitremote.Files{"c.md": nil}, "m")
	wantInvalid(t, "push into a repository of too many files", err, "url", gitremote.ErrTooLarge)
	_, _, err = few.Push(ctx, url, "other", "", gitremote.Files{"1": nil, "2": nil, "3": nil, "4": nil}, "m")
	wantInvalid(t, "push of too many files", err, "files", gitremote.ErrTooLarge)

	small := newRemote(nil, gitremote.Options{MaxBytes: 50_000})
	_, err = small.Fetch(ctx, url, "", "")
	wantInvalid(t, "fetch of too many bytes", err, "url", gitremote.ErrTooLarge)
	_, _, err = small.Push(ctx, url, "other", "", gitremote.Files{"x": make([]byte, 50_001)}, "m")
	wantInvalid(t, "push of too many bytes", err, "files", gitremote.ErrTooLarge)

	// A pack whose bytes on the wire pass the cap while its objects do
	// not: 100 kB of digits compress to almost nothing.
	tiny := newRemote(nil, gitremote.Options{MaxBytes: 20_000})
	_, err = tiny.Fetch(ctx, url, "", "docs")
	wantInvalid(t, "objects over the cap", err, "url", gitremote.ErrTooLarge)

	// A pack longer on the wire than the cap: random bytes do not
	// compress.
	noise := make([]byte, 30_000)
	rand.Read(noise)
	r2 := seededRepo(t, map[string]string{"noise.bin": string(noise)})
	_, err = tiny.Fetch(ctx, r2.fileURL(), "", "")
	wantInvalid(t, "pack over the cap", err, "url", gitremote.ErrTooLarge)
	_, err = tiny.Fetch(ctx, serve(t, r2, "", "").URL+"/repo.git", "", "")
	wantInvalid(t, "pack over the cap over HTTP", err, "url", gitremote.ErrTooLarge)

	if got := git(t, r.dir, "for-each-ref", "--format=%(refname)"); got != "refs/heads/main\nrefs/tags/v1" {
		t.Errorf("refs changed: %s", got)
	}
}
