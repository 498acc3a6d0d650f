package jsruntime

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	"quire/internal/quire"
)

// Sandbox is the program that runs each script in a child process of
// its own: Path started with Args, in an empty environment, with only
// standard input, output and error open, calling ServeSandbox. The child
// puts itself under a data size limit (see confine), so that a
// script allocating past its memory limit fails in the child and never
// grows the server.
type Sandbox struct {
	// Path is the program, usually the server's own executable.
	Path string
	// Args are its arguments, after the program name.
	Args []string
}

// childGrace is how much longer than its wall time limit the parent
// gives a child, which enforces that limit itself, before killing it.
const childGrace = 2 * time.Second

// stderrKept bounds what is kept of a child's standard error: the first
// lines say why it died.
const stderrKept = 8 << 10

// command is the child process of one run.
func (s *Sandbox) command() *exec.Cmd {
	return &exec.Cmd{
		Path: s.Path,
		Args: append([]string{s.Path}, s.Args...),
		// A non-nil empty environment: the child inherits none of the
		// server's variables.
		Env: []string{},
		Dir: "/",
	}
}

// runInChild runs script on req in a new child process: it sends the
// run, serves the child's fetches through the Runner's Doer, keeps its
// console lines and reads its result, or why it died.
func (r *Runner) runInChild(ctx context.Context, script string, req quire.ScriptRequest) (quire.ScriptRun, error) {
	var run quire.ScriptRun
	code, err := r.programs.transformed(script)
	if err != nil {
		return run, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, r.cfg.WallTime+childGrace, ErrWallTime)
	defer cancel()

	cmd := r.cfg.Sandbox.command()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return run, fmt.Errorf("jsruntime: script sandbox: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return run, fmt.Errorf("jsruntime: script sandbox: %w", err)
	}
	stderr := &headBuffer{max: stderrKept}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return run, fmt.Errorf("jsruntime: starting the script sandbox: %w", err)
	}
	stopKill := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	defer stopKill()

	c := &childRun{r: r, ctx: ctx, w: newFramer(stdin), fetches: map[int64]context.CancelFunc{}, logs: newLogBook(r.cfg.MaxLogs)}
	start := &startFrame{Code: code, Request: req, Limits: limits{
		CPUTime: r.cfg.CPUTime, WallTime: r.cfg.WallTime, Memory: r.cfg.Memory, MaxBody: r.cfg.MaxBody,
		MaxFetches: r.cfg.MaxFetches, MaxLogs: r.cfg.MaxLogs, NoFetch: r.cfg.Doer == nil,
	}}
	var result *resultFrame
	if err := c.w.send(frame{Start: start}); err == nil {
		result = c.serve(gob.NewDecoder(stdout))
	}
	_ = stdin.Close()
	c.cancelFetches()
	_, _ = io.Copy(io.Discard, stdout)
	waitErr := cmd.Wait()
	c.wg.Wait()

	if result != nil {
		c.logs.dropped += result.Dropped
		run.Logs = c.logs.lines()
		if result.Err != nil {
			return run, r.decodeError(result.Err)
		}
		run.Response = result.Response
		if run.Response != nil && run.Response.Header == nil {
			run.Response.Header = http.Header{}
		}
		return run, nil
	}
	run.Logs = c.logs.lines()
	if cause := context.Cause(ctx); cause != nil {
		if errors.Is(cause, ErrWallTime) {
			return run, fmt.Errorf("jsruntime: %w", ErrWallTime)
		}
		return run, cause
	}
	return run, r.deathError(cmd, waitErr, stderr.String())
}

// decodeError is the error an errorFrame stands for.
func (r *Runner) decodeError(e *errorFrame) error {
	if e.Limit != "" {
		limit := limitNames()[e.Limit]
		if limit == ErrMemory {
			return r.memoryError()
		}
		if limit != nil {
			return fmt.Errorf("jsruntime: %w", limit)
		}
	}
	if e.Script {
		return &ScriptError{Message: e.Message, Stack: e.Stack, Unloadable: e.Unloadable}
	}
	return fmt.Errorf("jsruntime: %s", e.Message)
}

// memoryError is ErrMemory, naming the limit.
func (r *Runner) memoryError() error {
	return fmt.Errorf("jsruntime: %w of %s", ErrMemory, bytesText(r.cfg.Memory))
}

// deathError says why a child ended without a result: the runtime
// found no memory to grow into (the data size limit), or the kernel
// killed it (the CPU time limit), or something else went wrong.
func (r *Runner) deathError(cmd *exec.Cmd, waitErr error, stderr string) error {
	if diedOutOfMemory(stderr) {
		return r.memoryError()
	}
	if st := cmd.ProcessState; st != nil && killedByKernel(st) {
		if st.UserTime()+st.SystemTime() >= cpuLimit(r.cfg.CPUTime)-time.Second {
			return fmt.Errorf("jsruntime: %w", ErrCPUTime)
		}
		// Killed for want of memory.
		return r.memoryError()
	}
	line, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
	return fmt.Errorf("jsruntime: the script sandbox ended without an answer (%v): %s", waitErr, line)
}

// diedOutOfMemory reports whether a child's standard error says the Go
// runtime died for want of memory: the heap or its metadata could not
// grow, no stack could be mapped for a new thread, or (in a build with
// the race detector) its shadow memory could not grow.
func diedOutOfMemory(stderr string) bool {
	for _, s := range []string{"out of memory", "cannot allocate memory", "pthread_create failed", "failed to allocate"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// bytesText writes n bytes in MiB when it is a whole number of them.
func bytesText(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// childRun is the parent's side of one child's run.
type childRun struct {
	r    *Runner
	ctx  context.Context
	w    *framer
	logs *logBook
	wg   sync.WaitGroup

	mu      sync.Mutex
	fetches map[int64]context.CancelFunc
}

// serve reads the child's frames until its result, which it returns,
// or until the child's output ends (nil).
func (c *childRun) serve(dec *gob.Decoder) *resultFrame {
	for {
		var fr frame
		if err := dec.Decode(&fr); err != nil {
			return nil
		}
		switch {
		case fr.Result != nil:
			return fr.Result
		case fr.Log != nil:
			c.logs.keep(*fr.Log)
		case fr.Fetch != nil:
			c.fetch(fr.Fetch)
		case fr.Abort != 0:
			c.mu.Lock()
			if cancel, ok := c.fetches[fr.Abort]; ok {
				cancel()
			}
			c.mu.Unlock()
		}
	}
}

// fetch sends f through the Runner's Doer on its own goroutine and
// answers the child.
func (c *childRun) fetch(f *fetchFrame) {
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.fetches[f.ID] = cancel
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		a := c.send(ctx, f)
		a.ID = f.ID
		_ = c.w.send(frame{Answer: a})
		c.mu.Lock()
		delete(c.fetches, f.ID)
		c.mu.Unlock()
	}()
}

// send does the request f describes; failures are logged and only said
// to be failures to the child, as to a script.
func (c *childRun) send(ctx context.Context, f *fetchFrame) *answerFrame {
	cfg := c.r.cfg
	if cfg.Doer == nil {
		return &answerFrame{Err: "fetch is not available"}
	}
	req, err := http.NewRequestWithContext(ctx, f.Method, f.URL, bytes.NewReader(f.Body))
	if err != nil {
		return &answerFrame{Err: "invalid request"}
	}
	if f.Body == nil {
		req.Body = http.NoBody
	}
	req.Header = f.Header
	if req.Header == nil {
		req.Header = http.Header{}
	}
	ans, err := sendWith(cfg.Doer, req, cfg.MaxBody)
	if err != nil {
		cfg.Logger.DebugContext(ctx, "script fetch failed", "url", req.URL.Redacted(), "err", err)
		return &answerFrame{Err: "fetch failed"}
	}
	a := &answerFrame{Status: ans.status, URL: ans.url, Header: http.Header{}, Body: ans.body}
	for _, h := range ans.headers {
		a.Header.Add(h[0], h[1])
	}
	return a
}

// cancelFetches cancels the fetches still under way.
func (c *childRun) cancelFetches() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cancel := range c.fetches {
		cancel()
	}
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

// Write keeps what fits and reports all of p written.
func (b *headBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// String returns what was kept.
func (b *headBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
