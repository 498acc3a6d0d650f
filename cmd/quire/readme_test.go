package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// asCommandEnv names the variable that makes the test binary run as the
// quire command.
const asCommandEnv = "QUIRE_TEST_AS_COMMAND"

// TestMain runs the test binary as the quire command itself when
// asCommandEnv is 1, so that the tests start the server from the binary
// they run in instead of building it again.
func TestMain(m *testing.M) {
	if os.Getenv(asCommandEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// The README's first steps publish a site named handbook whose first page
// is titled Welcome and says "Hello from **Quire**.".
const (
	readmeSite      = "handbook"
	readmePageTitle = "Welcome"
	readmePageText  = "Hello from <strong>Quire</strong>."
)

// TestReadmeFirstSteps follows the README as a newcomer does: it starts the
// server the way the set-up section says (quire serve, from this test
// binary, which is the command's main), in an empty directory, then runs
// the shell blocks of the first-steps section in that directory with bash,
// stopping at the first failing command, and reads the published site they
// create. Only the address differs from the README's: the server and the
// blocks both take it from QUIRE_ADDR, which the README's blocks follow.
func TestReadmeFirstSteps(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README's first steps need %s (apt-get install %s)", tool, tool)
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(section(string(readme), "## Set up"), "\n    go run ./cmd/quire serve\n") {
		t.Fatal("the README's set-up section no longer starts the server with go run ./cmd/quire serve")
	}
	blocks := shellBlocks(section(string(readme), "## First steps"))
	if len(blocks) < 2 {
		t.Fatalf("the README's first steps have %d shell blocks, want the API calls and the publishing", len(blocks))
	}

	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	addr := freeAddr(t)
	env := readmeEnv(addr)
	logs := serveIn(t, bin, work, append(env, asCommandEnv+"=1"), addr)

	script := "set -euo pipefail\n" + strings.Join(blocks, "\n")
	cmd := exec.CommandContext(t.Context(), "bash", "-c", script)
	cmd.Dir, cmd.Env = work, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's first steps failed: %v\n--- script\n%s\n--- output\n%s\n--- server\n%s", err, script, out.String(), readLog(logs))
	}

	resp, err := http.Get("http://" + addr + "/sites/" + readmeSite + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), readmePageTitle) || !strings.Contains(string(page), readmePageText) {
		t.Fatalf("published site after the README's first steps: %d, want the page %q saying %q:\n%s\n--- steps output\n%s",
			resp.StatusCode, readmePageTitle, readmePageText, page, out.String())
	}
}

// section returns the lines of a Markdown text under the heading, up to
// the next heading of the same or a higher level; lines inside fenced
// blocks are never headings.
func section(text, heading string) string {
	want := headingLevel(heading)
	var out []string
	in, fenced := false, false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		level := 0
		if !fenced {
			level = headingLevel(line)
		}
		switch {
		case line == heading:
			in = true
			continue
		case in && level > 0 && level <= want:
			return strings.Join(out, "\n")
		}
		if in {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// headingLevel returns the level of a Markdown heading line (the number of
// its leading #), or 0 for any other line.
func headingLevel(line string) int {
	n := len(line) - len(strings.TrimLeft(line, "#"))
	if n == 0 || n == len(line) || line[n] != ' ' {
		return 0
	}
	return n
}

// shellBlocks returns the contents of the ```sh fenced blocks of a
// Markdown text, in order.
func shellBlocks(text string) []string {
	var blocks, cur []string
	in := false
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```sh":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, line)
		}
	}
	return blocks
}

// freeAddr returns a loopback address with a port free at the time of the
// call.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// readmeEnv is the environment of this process without the server's own
// settings, so that the server starts on its defaults, with QUIRE_ADDR set
// to addr; loopback requests bypass any proxy.
func readmeEnv(addr string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "QUIRE_") {
			env = append(env, kv)
		}
	}
	return append(env, "QUIRE_ADDR="+addr, "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1")
}

// serveIn runs "quire serve" in dir with env, as the README's set-up
// section does, and returns once it answers /readyz, with the path of the
// file its output goes to; it fails the test if the server exits first.
// The server is stopped when the test ends.
func serveIn(t *testing.T, bin, dir string, env []string, addr string) string {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "serve.log")
	logs, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	cmd := exec.Command(bin, "serve")
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		<-exited
	})
	for {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return logPath
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("quire serve exited before it was ready: %v\n%s", err, readLog(logPath))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// readLog returns the content of a log file, or why it cannot be read.
func readLog(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
