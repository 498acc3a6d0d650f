package jsruntime

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"

	"quire/internal/quire"
)

// ServeSandbox is the child side of a sandboxed run (see Sandbox): it
// reads the run from in, puts its own process under the run's limits,
// runs the script, sending its fetches to the parent and its console
// lines and result back, all on out. The process must do nothing else,
// before or after: the limits stay, and they count the whole process.
func ServeSandbox(ctx context.Context, in io.Reader, out io.Writer) error {
	closeInherited()
	// Each OS thread takes a stack the memory limit counts: a child needs
	// one processor for the script and one for the collector.
	runtime.GOMAXPROCS(2)
	dec := gob.NewDecoder(in)
	var first frame
	if err := dec.Decode(&first); err != nil {
		return fmt.Errorf("jsruntime: reading the run: %w", err)
	}
	st := first.Start
	if st == nil {
		return errors.New("jsruntime: the first frame does not start a run")
	}
	if err := confine(st.Limits); err != nil {
		return fmt.Errorf("jsruntime: limiting the sandbox: %w", err)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newFramer(out)
	d := &pipeDoer{w: w, waiting: map[int64]chan *answerFrame{}}
	go func() {
		// Answers to fetches, until the parent closes its end, which
		// ends the run.
		defer cancel()
		for {
			var fr frame
			if err := dec.Decode(&fr); err != nil {
				return
			}
			if fr.Answer != nil {
				d.deliver(fr.Answer)
			}
		}
	}()

	lim := st.Limits
	var doer Doer = d
	if lim.NoFetch {
		doer = nil
	}
	r := New(Config{Doer: doer, CPUTime: lim.CPUTime, WallTime: lim.WallTime, Memory: lim.Memory, MaxBody: lim.MaxBody,
		MaxFetches: lim.MaxFetches, MaxLogs: lim.MaxLogs, Logger: slog.New(slog.DiscardHandler)})
	logs := newLogBook(r.cfg.MaxLogs)
	logs.forward = func(e quire.ScriptLog) { _ = w.send(frame{Log: &e}) }
	var run quire.ScriptRun
	prog, err := goja.Compile("script.js", st.Code, true)
	if err != nil {
		err = &ScriptError{Message: err.Error()}
	} else {
		run, err = r.runHere(ctx, prog, st.Request, logs)
	}
	return w.send(frame{Result: &resultFrame{Response: run.Response, Err: encodeError(err), Dropped: logs.dropped}})
}

// encodeError is err as it crosses the pipe; nil for nil.
func encodeError(err error) *errorFrame {
	if err == nil {
		return nil
	}
	for name, limit := range limitNames() {
		if errors.Is(err, limit) {
			return &errorFrame{Limit: name}
		}
	}
	var se *ScriptError
	if errors.As(err, &se) {
		return &errorFrame{Script: true, Message: se.Message, Stack: se.Stack, Unloadable: se.Unloadable}
	}
	return &errorFrame{Message: err.Error()}
}

// pipeDoer is the Doer of a sandboxed run: it hands each request to the
// parent, which sends it through the server's Doer, and waits for the
// answer.
type pipeDoer struct {
	w    *framer
	next atomic.Int64

	mu      sync.Mutex
	waiting map[int64]chan *answerFrame
}

// Do sends req through the parent.
func (d *pipeDoer) Do(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		body = b
	}
	id := d.next.Add(1)
	ch := make(chan *answerFrame, 1)
	d.mu.Lock()
	d.waiting[id] = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.waiting, id)
		d.mu.Unlock()
	}()
	f := &fetchFrame{ID: id, Method: req.Method, URL: req.URL.String(), Header: req.Header, Body: body}
	if err := d.w.send(frame{Fetch: f}); err != nil {
		return nil, err
	}
	select {
	case a := <-ch:
		if a.Err != "" {
			return nil, errors.New(a.Err)
		}
		u, err := url.Parse(a.URL)
		if err != nil {
			u = req.URL
		}
		return &http.Response{
			StatusCode:    a.Status,
			Header:        a.Header,
			Body:          io.NopCloser(bytes.NewReader(a.Body)),
			ContentLength: int64(len(a.Body)),
			Request:       &http.Request{Method: req.Method, URL: u},
		}, nil
	case <-req.Context().Done():
		_ = d.w.send(frame{Abort: id})
		return nil, req.Context().Err()
	}
}

// deliver hands a to the fetch waiting for it, if it still waits.
func (d *pipeDoer) deliver(a *answerFrame) {
	d.mu.Lock()
	ch := d.waiting[a.ID]
	d.mu.Unlock()
	if ch != nil {
		ch <- a
	}
}
