package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dop251/goja"

	"quire/internal/quire"
)

// loop is the event loop of one run. The runtime is used only on the
// goroutine that calls run; fetches and timers complete on other
// goroutines and post a callback to queue, which run executes.
type loop struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	vm     *goja.Runtime
	cfg    Config

	queue chan func() error
	// done is closed when the run is over, so that late completions do
	// not block on queue.
	done chan struct{}

	helpers *goja.Object
	logs    *logBook
	cpu     meter

	// pending counts outstanding fetches and timers; waits the promises
	// passed to ctx.waitUntil that have not settled.
	pending, waits int
	nextID         int64
	// unhandled holds the rejected promises nothing handled yet, in order.
	unhandled  []*goja.Promise
	timers     map[int64]*timer
	fetches    map[int64]context.CancelFunc
	fetchCount int
}

func newLoop(ctx context.Context, vm *goja.Runtime, cfg Config, logs *logBook) *loop {
	ctx, cancel := context.WithCancelCause(ctx)
	l := &loop{
		ctx:     ctx,
		cancel:  cancel,
		vm:      vm,
		cfg:     cfg,
		queue:   make(chan func() error, 16),
		done:    make(chan struct{}),
		logs:    logs,
		timers:  map[int64]*timer{},
		fetches: map[int64]context.CancelFunc{},
	}
	vm.SetPromiseRejectionTracker(l.trackRejection)
	return l
}

// trackRejection keeps the rejected promises that have no handler, to
// log those still unhandled when the run ends.
func (l *loop) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	if op == goja.PromiseRejectionReject {
		l.unhandled = append(l.unhandled, p)
		return
	}
	for i, u := range l.unhandled {
		if u == p {
			l.unhandled = append(l.unhandled[:i], l.unhandled[i+1:]...)
			return
		}
	}
}

// logUnhandled logs the rejections nothing handled, except that of
// answer, which the run reports as its error.
func (l *loop) logUnhandled(answer *goja.Promise) {
	for _, p := range l.unhandled {
		if p == answer {
			continue
		}
		l.logs.add(quire.ScriptLogError, "Uncaught (in promise) "+exceptionError(p.Result(), "").trace())
	}
	l.unhandled = nil
}

// close ends the run: timers stop, fetches are cancelled and late
// completions are dropped.
func (l *loop) close() {
	for _, t := range l.timers {
		t.t.Stop()
	}
	l.cancel(context.Canceled)
	close(l.done)
}

// stop ends the run from outside the loop's goroutine (the watchdog):
// running JavaScript is interrupted and the loop stops waiting.
func (l *loop) stop(cause error) {
	l.vm.Interrupt(cause)
	l.cancel(cause)
}

// post hands f to the loop; it is dropped once the run is over.
func (l *loop) post(f func() error) {
	select {
	case l.queue <- f:
	case <-l.done:
	}
}

// enter runs f on the runtime, counting the time against the CPU limit.
func (l *loop) enter(f func() error) error {
	if err := context.Cause(l.ctx); err != nil {
		return err
	}
	l.cpu.begin()
	err := f()
	l.cpu.end()
	if err != nil {
		if cause := context.Cause(l.ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			// The watchdog interrupted: report its reason.
			return cause
		}
		return err
	}
	return nil
}

// run calls start, which returns the handler's answer, then drives the
// loop until that answer and every waitUntil promise have settled.
func (l *loop) run(start func() (goja.Value, error)) (*quire.ScriptResponse, error) {
	var answer goja.Value
	if err := l.enter(func() (err error) {
		answer, err = start()
		return err
	}); err != nil {
		return nil, l.failure(err)
	}
	promise, _ := answer.Export().(*goja.Promise)
	defer l.logUnhandled(promise)
	settled := func() bool { return promise == nil || promise.State() != goja.PromiseStatePending }
	for !settled() || l.waits > 0 {
		if l.pending == 0 && len(l.queue) == 0 {
			if !settled() {
				return nil, l.failure(ErrNoAnswer)
			}
			break // waitUntil promises that can no longer settle
		}
		select {
		case f := <-l.queue:
			if err := l.enter(f); err != nil {
				return nil, l.failure(err)
			}
		case <-l.ctx.Done():
			return nil, l.failure(context.Cause(l.ctx))
		}
	}
	if promise != nil {
		if promise.State() == goja.PromiseStateRejected {
			return nil, exceptionError(promise.Result(), "")
		}
		answer = promise.Result()
	}
	var resp *quire.ScriptResponse
	err := l.enter(func() error {
		var err error
		resp, err = l.readResponse(answer)
		return err
	})
	if err != nil {
		return nil, l.failure(err)
	}
	return resp, nil
}

// failure is the error a run ends with.
func (l *loop) failure(err error) error {
	if errors.Is(err, ErrCPUTime) || errors.Is(err, ErrMemory) || errors.Is(err, ErrWallTime) || errors.Is(err, ErrNoAnswer) {
		return fmt.Errorf("jsruntime: %w", err)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return scriptError(err)
}

// readResponse turns the Response the handler answered into a
// quire.ScriptResponse.
func (l *loop) readResponse(v goja.Value) (*quire.ScriptResponse, error) {
	read, _ := goja.AssertFunction(l.helpers.Get("readResponse"))
	out, err := read(l.helpers, v)
	if err != nil {
		return nil, err
	}
	obj := out.ToObject(l.vm)
	resp := &quire.ScriptResponse{Status: int(obj.Get("status").ToInteger()), Header: http.Header{}}
	var pairs [][]string
	if err := l.vm.ExportTo(obj.Get("headers"), &pairs); err != nil {
		return nil, err
	}
	for _, p := range pairs {
		if len(p) == 2 {
			resp.Header.Add(p[0], p[1])
		}
	}
	if b, ok := obj.Get("body").Export().(goja.ArrayBuffer); ok {
		resp.Body = append([]byte(nil), b.Bytes()...)
	}
	return resp, nil
}

// timer is one setTimeout or setInterval.
type timer struct {
	t      *time.Timer
	repeat bool
}

// setTimer schedules fn after ms milliseconds, again and again when
// repeat, and returns the timer's id.
func (l *loop) setTimer(fn goja.Callable, ms float64, repeat bool) int64 {
	l.nextID++
	id := l.nextID
	delay := time.Duration(max(ms, 0) * float64(time.Millisecond))
	if repeat && delay < time.Millisecond {
		delay = time.Millisecond
	}
	t := &timer{repeat: repeat}
	var fire func()
	fire = func() {
		l.post(func() error {
			if _, ok := l.timers[id]; !ok {
				return nil // cleared meanwhile
			}
			if t.repeat {
				t.t = time.AfterFunc(delay, fire)
			} else {
				delete(l.timers, id)
				l.pending--
			}
			_, err := fn(goja.Undefined())
			return err
		})
	}
	l.timers[id] = t
	l.pending++
	t.t = time.AfterFunc(delay, fire)
	return id
}

// clearTimer cancels the timer id, if it is still scheduled.
func (l *loop) clearTimer(id int64) {
	t, ok := l.timers[id]
	if !ok {
		return
	}
	t.t.Stop()
	delete(l.timers, id)
	l.pending--
}

// logBook keeps the console lines of one run, up to a bound.
type logBook struct {
	max     int
	entries []quire.ScriptLog
	dropped int
	// forward, when set, is handed every line kept.
	forward func(quire.ScriptLog)
}

func newLogBook(max int) *logBook { return &logBook{max: max} }

// add records one line, cut to DefaultMaxLogLine bytes.
func (b *logBook) add(level quire.ScriptLogLevel, msg string) {
	if len(b.entries) >= b.max {
		b.dropped++
		return
	}
	if len(msg) > DefaultMaxLogLine {
		msg = strings.ToValidUTF8(msg[:DefaultMaxLogLine], "") + "…"
	}
	b.keep(quire.ScriptLog{Time: time.Now().UTC(), Level: level, Message: msg})
}

// keep records a line already cut, or counts it as dropped past the
// bound.
func (b *logBook) keep(e quire.ScriptLog) {
	if len(b.entries) >= b.max {
		b.dropped++
		return
	}
	b.entries = append(b.entries, e)
	if b.forward != nil {
		b.forward(e)
	}
}

// lines returns the recorded lines, with a last one counting those
// dropped.
func (b *logBook) lines() []quire.ScriptLog {
	out := b.entries
	if b.dropped > 0 {
		out = append(out, quire.ScriptLog{
			Time:    time.Now().UTC(),
			Level:   quire.ScriptLogWarn,
			Message: fmt.Sprintf("console output cut: %d more lines were dropped", b.dropped),
		})
	}
	return out
}
