package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"quire/internal/testutil"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// patience bounds every wait on the server under test.
const patience = 30 * time.Second

// env returns a getenv over vars only, so that the tests never see the
// environment of the process running them.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// runCmd runs the command line args to completion and returns its exit
// code, stdout and stderr.
func runCmd(t *testing.T, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(t.Context(), args, Env{Getenv: getenv, Stdout: &stdout, Stderr: &stderr})
	return code, stdout.String(), stderr.String()
}

// server is a "quire serve" running in the background.
type server struct {
	url    string
	stderr *testutil.SyncBuffer
	cancel context.CancelFunc
	done   chan int
}

// startServe runs "quire serve args..." until the test ends or stop is
// called, and returns once it accepts connections.
func startServe(t *testing.T, getenv func(string) string, args ...string) *server {
	t.Helper()
	s, err := launch(getenv, args...)
	if s != nil {
		t.Cleanup(func() { s.stop(t) })
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// launch is startServe for any goroutine: it reports instead of failing
// the test, and leaves stopping the server to the caller.
func launch(getenv func(string) string, args ...string) (*server, error) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{stderr: &testutil.SyncBuffer{}, cancel: cancel, done: make(chan int, 1)}
	addrs := make(chan string, 1)
	e := Env{Getenv: getenv, Stdout: io.Discard, Stderr: s.stderr, Listening: func(a string) { addrs <- a }}
	go func() { s.done <- Run(ctx, append([]string{"serve"}, args...), e) }()
	select {
	case a := <-addrs:
		s.url = "http://" + a
		return s, nil
	case code := <-s.done:
		s.done <- code
		return s, fmt.Errorf("serve exited with %d before listening:\n%s", code, s.stderr)
	case <-time.After(patience):
		return s, fmt.Errorf("serve not listening after %v:\n%s", patience, s.stderr)
	}
}

// stop ends the server as a signal would and returns its exit code.
func (s *server) stop(t *testing.T) int {
	t.Helper()
	s.cancel()
	select {
	case code := <-s.done:
		s.done <- code // a later stop sees it too
		return code
	case <-time.After(patience):
		t.Fatalf("serve did not shut down within %v:\n%s", patience, s.stderr)
		return -1
	}
}

// get sends a GET with an optional bearer token and returns the status
// and body.
func (s *server) get(t *testing.T, path, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", s.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// tokenLines returns the lines of stderr that show a bootstrap token.
func tokenLines(stderr string) []string {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "quire: admin API token: ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// postgresURL returns the URL of a new, empty PostgreSQL database dropped
// when the test ends, or skips the test when QUIRE_TEST_POSTGRES_URL is
// not set.
func postgresURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv("QUIRE_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("QUIRE_TEST_POSTGRES_URL not set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting to %s: %v", base, err)
	}
	defer conn.Close(ctx)
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "quire_cli_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
