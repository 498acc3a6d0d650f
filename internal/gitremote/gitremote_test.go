package gitremote_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"quire/internal/gitremote"
	"quire/internal/quire"
)

var seed = map[string]string{
	"README.md":          "# Project\n",
	"docs/index.md":      "# Docs\n",
	"docs/guide/a.md":    "A\n",
	"src/main.go":        "package main\n",
	"docs/guide/b/c.txt": "C\n",
}

// transports runs f once with the file:// URL of r and once with its URL
// over smart HTTP.
func transports(t *testing.T, r repo, f func(t *testing.T, url string)) {
	t.Run("file", func(t *testing.T) { f(t, r.fileURL()) })
	t.Run("http", func(t *testing.T) { f(t, serve(t, r, "", "").URL+"/repo.git") })
}

// eachTransport runs f over file:// and over smart HTTP, each time on a
// fresh repository made by mk.
func eachTransport(t *testing.T, mk func(t *testing.T) repo, f func(t *testing.T, r repo, url string)) {
	t.Run("file", func(t *testing.T) {
		r := mk(t)
		f(t, r, r.fileURL())
	})
	t.Run("http", func(t *testing.T) {
		r := mk(t)
		f(t, r, serve(t, r, "", "").URL+"/repo.git")
	})
}

// wantFiles compares a checkout's files with want.
func wantFiles(t *testing.T, what string, got gitremote.Files, want map[string]string) {
	t.Helper()
	g := map[string]string{}
	for p, b := range got {
		g[p] = string(b)
	}
	if !maps.Equal(g, want) {
		t.Errorf("%s: files %v, want %v", what, slices.Sorted(maps.Keys(g)), slices.Sorted(maps.Keys(want)))
		for p, s := range want {
			if g[p] != s {
				t.Errorf("%s: %s = %q, want %q", what, p, g[p], s)
			}
		}
	}
}

// wantInvalid checks that err is a quire EINVALID error about field
// wrapping cause (when not nil).
func wantInvalid(t *testing.T, what string, err error, field string, cause error) {
	t.Helper()
	var qe *quire.Error
	if !errors.As(err, &qe) || qe.Code != quire.EINVALID || qe.Field != field {
		t.Fatalf("%s: got %v, want an invalid %q error", what, err, field)
	}
	if cause != nil && !errors.Is(err, cause) {
		t.Errorf("%s: %v does not wrap %v", what, err, cause)
	}
}

func TestFetch(t *testing.T) {
	r := seededRepo(t, seed)
	main := git(t, r.dir, "rev-parse", "refs/heads/main")
	transports(t, r, func(t *testing.T, url string) {
		rem := newRemote(nil, gitremote.Options{})
		ctx := context.Background()

		co, err := rem.Fetch(ctx, url, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if co.OID != main || co.Message != "Seed\n" || co.Own {
			t.Errorf("default branch: %s %q, want %s", co.OID, co.Message, main)
		}
		wantFiles(t, "whole tree", co.Files, seed)

		co, err = rem.Fetch(ctx, url, "main", "/docs/guide/")
		if err != nil {
			t.Fatal(err)
		}
		wantFiles(t, "subdirectory", co.Files, map[string]string{"a.md": "A\n", "b/c.txt": "C\n"})

		for _, ref := range []string{"refs/heads/main", "v1", "refs/tags/v1", "HEAD"} {
			co, err = rem.Fetch(ctx, url, ref, "src")
			if err != nil {
				t.Fatalf("%s: %v", ref, err)
			}
			if co.OID != main {
				t.Errorf("%s: commit %s, want %s", ref, co.OID, main)
			}
			wantFiles(t, ref, co.Files, map[string]string{"main.go": "package main\n"})
		}

		co, err = rem.Fetch(ctx, url, "main", "nowhere")
		if err != nil || len(co.Files) != 0 {
			t.Errorf("missing directory: %v files, %v; want none", len(co.Files), err)
		}

		_, err = rem.Fetch(ctx, url, "refs/heads/nope", "")
		wantInvalid(t, "missing branch", err, "ref", gitremote.ErrRefNotFound)
		_, err = rem.Fetch(ctx, url, "nope", "")
		wantInvalid(t, "missing short name", err, "ref", gitremote.ErrRefNotFound)
	})
}

func TestFetchEmptyRepository(t *testing.T) {
	r := newRepo(t)
	transports(t, r, func(t *testing.T, url string) {
		rem := newRemote(nil, gitremote.Options{})
		_, err := rem.Fetch(context.Background(), url, "", "")
		wantInvalid(t, "empty repository", err, "ref", gitremote.ErrRefNotFound)
		_, err = rem.Fetch(context.Background(), url, "main", "")
		wantInvalid(t, "empty repository, named branch", err, "ref", gitremote.ErrRefNotFound)
	})
}
