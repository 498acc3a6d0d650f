package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process handling of the peer benchmark.
const (
	// peerReadyTimeout bounds the wait for a started server to answer.
	peerReadyTimeout = time.Minute
	// peerStopTimeout is how long a server may take to exit after SIGTERM
	// before it is killed.
	peerStopTimeout = 30 * time.Second
	// peerLogTail is how much of a server's log an error shows.
	peerLogTail = 2000
)

// peerBinaries are the two server binaries the peer benchmark builds, and
// the version of PocketBase its module requires.
type peerBinaries struct {
	quire, pocketbase string
	pbVersion         string
}

// buildPeers builds quire from ./cmd/quire and PocketBase from its own
// module in bench/peers/pocketbase, both into dir/bin, with the go command
// on PATH, and reports how long each build took.
func buildPeers(ctx context.Context, dir string, w io.Writer) (peerBinaries, error) {
	root, err := moduleRoot(ctx)
	if err != nil {
		return peerBinaries{}, err
	}
	pbDir := filepath.Join(root, "bench", "peers", "pocketbase")
	bin := filepath.Join(dir, "bin")
	bins := peerBinaries{quire: filepath.Join(bin, "quire"), pocketbase: filepath.Join(bin, "pocketbase")}
	version := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Version}}", "github.com/pocketbase/pocketbase")
	version.Dir = pbDir
	out, err := version.Output()
	if err != nil {
		return bins, fmt.Errorf("reading the version of pocketbase in %s: %w", pbDir, err)
	}
	bins.pbVersion = strings.TrimSpace(string(out))
	builds := []struct {
		name string
		args []string
	}{
		{"quire", []string{"build", "-o", bins.quire, "./cmd/quire"}},
		{"pocketbase", []string{"build", "-C", pbDir, "-o", bins.pocketbase, "."}},
	}
	for _, b := range builds {
		began := time.Now()
		cmd := exec.CommandContext(ctx, "go", b.args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return bins, fmt.Errorf("building %s: %w\n%s", b.name, err, out)
		}
		fmt.Fprintf(w, "peers: built %s in %s\n", b.name, time.Since(began).Round(100*time.Millisecond))
	}
	return bins, nil
}

// moduleRoot returns the directory of Quire's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module root: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("finding the module root: not inside Quire's module")
	}
	return filepath.Dir(gomod), nil
}

// process is a server started by the peer benchmark, its output going to
// a log file.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{} // closed when the process has exited
	waitErr error         // what Wait returned, once exited is closed
}

// startProcess starts bin with args, its standard output and error
// appended to logPath. The environment is this one without the QUIRE_
// variables, so only the command line configures the server.
func startProcess(name, logPath, bin string, args ...string) (*process, error) {
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer log.Close() // the child holds its own descriptor
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "QUIRE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// runOnce runs bin with args to completion, for a server's setup command.
func runOnce(ctx context.Context, bin string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), strings.Join(args, " "), err, out)
	}
	return nil
}

// waitReady polls url until it answers 200, failing when the process
// exits first or peerReadyTimeout passes.
func (p *process) waitReady(ctx context.Context, client *http.Client, url string) error {
	deadline := time.Now().Add(peerReadyTimeout)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.exited:
			return fmt.Errorf("%s exited before answering: %v\n%s", p.name, p.waitErr, p.logTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer %s within %s\n%s", p.name, url, peerReadyTimeout, p.logTail())
		}
	}
}

// stop sends SIGTERM and waits for the process to exit, killing it after
// peerStopTimeout. An exit caused by the SIGTERM is not an error.
func (p *process) stop() error {
	select {
	case <-p.exited:
		return p.exitErr()
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stopping %s: %w", p.name, err)
	}
	select {
	case <-p.exited:
		return p.exitErr()
	case <-time.After(peerStopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return fmt.Errorf("%s did not exit within %s of SIGTERM; killed", p.name, peerStopTimeout)
	}
}

// exitErr is the process's exit as an error, nil for a clean exit or one
// by SIGTERM, or by SIGINT, which a terminal's Ctrl-C sends it too.
func (p *process) exitErr() error {
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() &&
			(ws.Signal() == syscall.SIGTERM || ws.Signal() == syscall.SIGINT) {
			return nil
		}
	}
	if p.waitErr != nil {
		return fmt.Errorf("%s: %w\n%s", p.name, p.waitErr, p.logTail())
	}
	return nil
}

// residentMemory is a process's resident memory in bytes: all of it
// (VmRSS), and its own anonymous pages (RssAnon: heap, stacks), which
// leaves out the pages of the executable and libraries it maps from the
// page cache, shared and dropped by the kernel at will.
type residentMemory struct {
	rss, anon int64
}

// rss returns the process's resident memory, from /proc/PID/status.
func (p *process) rss() (residentMemory, error) {
	var m residentMemory
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return m, fmt.Errorf("reading the memory of %s: %w", p.name, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	found := 0
	for sc.Scan() {
		for field, dst := range map[string]*int64{"VmRSS:": &m.rss, "RssAnon:": &m.anon} {
			kb, ok := strings.CutPrefix(sc.Text(), field)
			if !ok {
				continue
			}
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			if err != nil {
				return m, fmt.Errorf("reading the memory of %s: %w", p.name, err)
			}
			*dst = n * 1024
			found++
		}
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	if found != 2 {
		return m, fmt.Errorf("reading the memory of %s: no VmRSS or RssAnon in /proc/%d/status", p.name, p.cmd.Process.Pid)
	}
	return m, nil
}

// logTail returns the end of the process's log, for an error message.
func (p *process) logTail() string {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return ""
	}
	if len(b) > peerLogTail {
		b = b[len(b)-peerLogTail:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}

// freeAddr returns a loopback address with a port free at the moment of
// the call, for a server that must be told its port.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	return addr, ln.Close()
}
