package gitremote_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"quire/internal/gitremote"
)

// wantMessage checks that err reads as want somewhere in its text.
func wantMessage(t *testing.T, what string, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v, want it to say %q", what, err, want)
	}
}

func TestFailuresNameTheirCause(t *testing.T) {
	rem := newRemote(nil, gitremote.Options{})
	ctx := context.Background()

	t.Run("local path missing", func(t *testing.T) {
		_, err := rem.Fetch(ctx, "file://"+filepath.Join(t.TempDir(), "nowhere"), "", "")
		wantInvalid(t, "missing path", err, "url", gitremote.ErrNotRepository)
		wantMessage(t, "missing path", err, "the path does not exist")
	})
	t.Run("not a repository", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("A"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := rem.Fetch(ctx, "file://"+dir, "", "")
		wantInvalid(t, "plain directory", err, "url", gitremote.ErrNotRepository)
		wantMessage(t, "plain directory", err, "is not a Git repository")
	})
	t.Run("branch not found", func(t *testing.T) {
		r := seededRepo(t, seed)
		transports(t, r, func(t *testing.T, url string) {
			_, err := rem.Fetch(ctx, url, "refs/heads/nope", "")
			wantInvalid(t, "missing branch", err, "ref", gitremote.ErrRefNotFound)
			wantMessage(t, "missing branch", err, `branch or tag "refs/heads/nope" not found`)
		})
	})
	t.Run("object missing", func(t *testing.T) {
		dir := workTree(t, map[string]string{"README.md": "# R\n", "docs/gone.md": "Gone\n"})
		oid := git(t, dir, "rev-parse", "HEAD:docs/gone.md")
		if err := os.Remove(filepath.Join(dir, ".git", "objects", oid[:2], oid[2:])); err != nil {
			t.Fatal(err)
		}
		_, err := rem.Fetch(ctx, "file://"+dir, "", "")
		wantInvalid(t, "missing object", err, "url", gitremote.ErrObjectMissing)
		wantMessage(t, "missing object", err, fmt.Sprintf("object %s of path \"docs/gone.md\" missing", oid))
	})
	t.Run("authentication refused", func(t *testing.T) {
		r := seededRepo(t, seed)
		srv := serve(t, r, "user", "secret")
		u := strings.Replace(srv.URL, "http://", "http://user:wrong@", 1) + "/repo.git"
		_, err := rem.Fetch(ctx, u, "", "")
		wantInvalid(t, "wrong password", err, "url", gitremote.ErrAuth)
		wantMessage(t, "wrong password", err, "authentication refused")
		if strings.Contains(err.Error(), "wrong") {
			t.Errorf("the error shows the password: %v", err)
		}
	})
	t.Run("timed out", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		held := make(chan net.Conn, 1)
		t.Cleanup(func() {
			ln.Close()
			select {
			case c := <-held:
				c.Close()
			default:
			}
		})
		go func() {
			if c, err := ln.Accept(); err == nil {
				held <- c
			}
		}()
		slow := newRemote(nil, gitremote.Options{Timeout: time.Second, SSHHostKey: ssh.InsecureIgnoreHostKey()})
		_, err = slow.Fetch(ctx, fmt.Sprintf("ssh://git@127.0.0.1:%d/repo.git", ln.Addr().(*net.TCPAddr).Port), "", "")
		wantInvalid(t, "silent server", err, "url", gitremote.ErrTimeout)
		wantMessage(t, "silent server", err, "timed out after 1 s")
		if !errors.Is(err, gitremote.ErrUnreachable) {
			t.Errorf("a time-out is not a kind of unreachable remote: %v", err)
		}
	})
}
