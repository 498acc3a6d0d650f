package gitremote_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"quire/internal/gitremote"
)

// listen accepts TCP connections on 127.0.0.1, counting and closing them.
func listen(t *testing.T) (port int, accepted *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted = new(atomic.Int64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, accepted
}

func TestRefusesLocalRemotesByDefault(t *testing.T) {
	r := seededRepo(t, seed)
	srv := serve(t, r, "", "")
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	sshPort, sshAccepted := listen(t)
	rem := gitremote.New(gitremote.Options{Logger: slog.New(slog.DiscardHandler)})
	ctx := context.Background()
	before := git(t, r.dir, "rev-parse", "main")

	_, err := rem.Fetch(ctx, r.fileURL(), "", "")
	wantInvalid(t, "file URL", err, "url", nil)
	_, _, err = rem.Push(ctx, r.fileURL(), "main", "", gitremote.Files{"a": nil}, "m")
	wantInvalid(t, "file URL push", err, "url", nil)

	for _, u := range []string{
		srv.URL + "/repo.git",
		fmt.Sprintf("http://localhost:%d/repo.git", port),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/repo.git", port),
		fmt.Sprintf("http://2130706433:%d/repo.git", port),
		fmt.Sprintf("ssh://git@127.0.0.1:%d/repo.git", sshPort),
		fmt.Sprintf("ssh://git@localhost:%d/repo.git", sshPort),
	} {
		_, err := rem.Fetch(ctx, u, "", "")
		wantInvalid(t, u, err, "url", gitremote.ErrUnreachable)
		_, _, err = rem.Push(ctx, u, "main", "", gitremote.Files{"a": nil}, "m")
		wantInvalid(t, u+" push", err, "url", gitremote.ErrUnreachable)
	}
	if n := srv.hits.Load(); n != 0 {
		t.Errorf("the loopback HTTP server was reached %d times", n)
	}
	if n := sshAccepted.Load(); n != 0 {
		t.Errorf("the loopback ssh port was reached %d times", n)
	}
	if got := git(t, r.dir, "rev-parse", "main"); got != before {
		t.Errorf("main moved to %s", got)
	}
}

func TestRefusesOtherSchemes(t *testing.T) {
	rem := newRemote(nil, gitremote.Options{})
	for _, u := range []string{
		"git://example.com/repo.git",
		"ftp://example.com/repo.git",
		"/tmp/repo.git",
		"repo.git",
		"https:///repo.git",
		"file://example.com/tmp/repo.git",
		"ssh://example.com",
	} {
		_, err := rem.Fetch(context.Background(), u, "", "")
		wantInvalid(t, u, err, "url", nil)
	}
}

// noSecret fails when text shows the secret.
func noSecret(t *testing.T, what, text string) {
	t.Helper()
	if strings.Contains(text, "secret") {
		t.Errorf("%s shows the credentials: %s", what, text)
	}
}

func TestCredentialsNeverShown(t *testing.T) {
	r := seededRepo(t, seed)
	srv := serve(t, r, "user", "secret")
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	sshPort, _ := listen(t)
	var logs logBuffer
	rem := newRemote(&logs, gitremote.Options{})
	ctx := context.Background()

	for _, c := range []struct {
		url   string
		cause error
	}{
		// TLS to a plain HTTP server fails before any answer.
		{fmt.Sprintf("https://user:secret@127.0.0.1:%d/x.git", port), gitremote.ErrUnreachable},
		// The server refuses a wrong password.
		{fmt.Sprintf("http://user:notsecret@127.0.0.1:%d/repo.git", port), gitremote.ErrAuth},
		// No repository at that path.
		{fmt.Sprintf("http://user:secret@127.0.0.1:%d/missing.git", port), gitremote.ErrUnreachable},
		// The ssh port closes the connection at once.
		{fmt.Sprintf("ssh://git:secret@127.0.0.1:%d/repo.git", sshPort), gitremote.ErrUnreachable},
		// A token as the user name.
		{fmt.Sprintf("http://secret@127.0.0.1:%d/repo.git", port), gitremote.ErrAuth},
		{fmt.Sprintf("https://secret@127.0.0.1:%d/repo.git", port), gitremote.ErrUnreachable},
		// Not a URL this package takes.
		{fmt.Sprintf("https://user:secret@127.0.0.1:%d:%d/x.git", port, port), nil},
	} {
		_, err := rem.Fetch(ctx, c.url, "", "")
		wantInvalid(t, gitremote.Redact(c.url), err, "url", c.cause)
		noSecret(t, "fetch error", err.Error())
		_, _, err = rem.Push(ctx, c.url, "main", "docs", gitremote.Files{"a.md": []byte("A")}, "m")
		wantInvalid(t, gitremote.Redact(c.url)+" push", err, "url", c.cause)
		noSecret(t, "push error", err.Error())
	}
	_, err := rem.Fetch(ctx, fmt.Sprintf("http://user:secret@127.0.0.1:%d/repo.git", port), "nope", "")
	wantInvalid(t, "missing ref", err, "ref", gitremote.ErrRefNotFound)
	noSecret(t, "missing ref error", err.Error())

	// The right credentials are used.
	u := fmt.Sprintf("http://user:secret@127.0.0.1:%d/repo.git", port)
	co, err := rem.Fetch(ctx, u, "main", "docs")
	if err != nil {
		t.Fatalf("fetch with credentials: %v", err)
	}
	wantFiles(t, "with credentials", co.Files, map[string]string{"index.md": "# Docs\n", "guide/a.md": "A\n", "guide/b/c.txt": "C\n"})
	oid, pushed, err := rem.Push(ctx, u, "main", "docs", gitremote.Files{"a.md": []byte("A")}, "m")
	if err != nil || !pushed || git(t, r.dir, "rev-parse", "main") != oid {
		t.Fatalf("push with credentials: %s %v %v", oid, pushed, err)
	}
	if !strings.Contains(logs.String(), "git remote failed") {
		t.Errorf("failures were not logged:\n%s", logs.String())
	}
	noSecret(t, "the log", logs.String())
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:secret@example.com/org/repo.git":   "https://example.com/org/repo.git",
		"https://token@example.com/repo.git":             "https://example.com/repo.git",
		"http://example.com:8080/repo.git":               "http://example.com:8080/repo.git",
		"ssh://git:secret@example.com:2222/srv/repo.git": "ssh://example.com:2222/srv/repo.git",
		"git@example.com:org/repo.git":                   "example.com:org/repo.git",
		"example.com:org/repo.git":                       "example.com:org/repo.git",
		"file:///tmp/repo.git":                           "file:///tmp/repo.git",
		"https://user:secret@example.com:1:2/x.git":      "https://example.com:1:2/x.git",
		"user:secret@example.com/x":                      "example.com/x",
		"https://user:s%zzecret@example.com/x":           "https://example.com/x",
	} {
		if got := gitremote.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
