package jsruntime

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/url"

	"quire/internal/quire"
)

// Defaults of a Config left zero.
const (
	// DefaultCPUTime bounds the time a run spends executing JavaScript.
	DefaultCPUTime = 5 * time.Second
	// DefaultWallTime bounds a whole run, waits on fetches and timers
	// included.
	DefaultWallTime = 60 * time.Second
	// DefaultMemory bounds how much a run may grow the live heap.
	DefaultMemory = 128 << 20
	// DefaultMaxBody bounds each body: the request, every body the
	// script builds, every answer to its fetches, its own answer.
	DefaultMaxBody = 16 << 20
	// DefaultMaxFetches is how many outbound requests one run may make.
	DefaultMaxFetches = 50
	// DefaultMaxLogs is how many console lines one run keeps; later
	// lines are dropped and counted in one last line.
	DefaultMaxLogs = 1000
	// DefaultMaxLogLine bounds one console line, in bytes.
	DefaultMaxLogLine = 16 << 10
	// DefaultMaxCallStack bounds the depth of JavaScript calls.
	DefaultMaxCallStack = 4096
	// cacheSize is how many compiled scripts are kept.
	cacheSize = 64
)

// Doer sends one HTTP request. The server's guarded client,
// fetch.NewHTTPClient, is one; every fetch a script makes goes through
// it, so its guard decides which addresses a script may reach.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Config configures a Runner; zero fields take the defaults above.
type Config struct {
	// Doer sends the scripts' fetches. Nil refuses every fetch.
	Doer Doer
	// CPUTime bounds the time one run spends executing JavaScript.
	CPUTime time.Duration
	// WallTime bounds one whole run.
	WallTime time.Duration
	// Memory bounds the memory of one run, in bytes. With a Sandbox it
	// is a hard limit on the child's data size (see confine);
	// without, the watchdog judges the growth of this process's live
	// heap (see watchdog.go).
	Memory int64
	// MaxBody bounds each body a run handles, in bytes.
	MaxBody int64
	// MaxFetches bounds the outbound requests of one run.
	MaxFetches int
	// MaxLogs bounds the console lines kept per run.
	MaxLogs int
	// Logger receives why fetches failed, at debug level.
	Logger *slog.Logger
	// Sandbox, when set, runs each script in a child process of its own
	// under a hard memory limit; nil runs scripts in this process.
	Sandbox *Sandbox
}

// Runner runs integration scripts, each run in a fresh sandboxed
// runtime. It implements quire.ScriptRunner and is safe for concurrent
// use.
type Runner struct {
	cfg      Config
	programs *programs
	prelude  *goja.Program
}

var _ quire.ScriptRunner = (*Runner)(nil)

//go:embed prelude.js
var preludeSource string

// New returns a Runner configured by c, with defaults for zero fields.
func New(c Config) *Runner {
	if c.CPUTime <= 0 {
		c.CPUTime = DefaultCPUTime
	}
	if c.WallTime <= 0 {
		c.WallTime = DefaultWallTime
	}
	if c.Memory <= 0 {
		c.Memory = DefaultMemory
	}
	if c.MaxBody <= 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.MaxFetches <= 0 {
		c.MaxFetches = DefaultMaxFetches
	}
	if c.MaxLogs <= 0 {
		c.MaxLogs = DefaultMaxLogs
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Runner{
		cfg:      c,
		programs: newPrograms(cacheSize),
		prelude:  goja.MustCompile("prelude.js", preludeSource, true),
	}
}

// RunScript loads script in a fresh runtime and hands req to its
// default export's fetch(request, env, ctx), with an empty env. It
// returns once the answer and everything passed to ctx.waitUntil have
// settled. The error is a *ScriptError when the script threw or its
// answer rejected, wraps ErrCPUTime, ErrMemory, ErrWallTime or
// ErrNoAnswer when a limit stopped it, or is ctx's error; the run holds
// the logs in all cases.
func (r *Runner) RunScript(ctx context.Context, script string, req quire.ScriptRequest) (quire.ScriptRun, error) {
	if int64(len(req.Body)) > r.cfg.MaxBody {
		return quire.ScriptRun{}, fmt.Errorf("jsruntime: request body of %d bytes is larger than the limit of %d bytes", len(req.Body), r.cfg.MaxBody)
	}
	if r.cfg.Sandbox != nil {
		return r.runInChild(ctx, script, req)
	}
	prog, err := r.programs.compile(script)
	if err != nil {
		return quire.ScriptRun{}, err
	}
	return r.runHere(ctx, prog, req, newLogBook(r.cfg.MaxLogs))
}

// runHere runs prog in a fresh runtime of this process, keeping its
// console lines in logs.
func (r *Runner) runHere(ctx context.Context, prog *goja.Program, req quire.ScriptRequest, logs *logBook) (quire.ScriptRun, error) {
	var run quire.ScriptRun
	ctx, cancel := context.WithTimeoutCause(ctx, r.cfg.WallTime, ErrWallTime)
	defer cancel()

	vm := goja.New()
	vm.SetMaxCallStackSize(DefaultMaxCallStack)
	l := newLoop(ctx, vm, r.cfg, logs)
	defer l.close()
	stop := startWatchdog(l, r.cfg)
	defer stop()

	resp, err := l.run(func() (goja.Value, error) {
		return r.start(vm, l, prog, req)
	})
	run.Logs = l.logs.lines()
	if err != nil {
		return run, err
	}
	run.Response = resp
	return run, nil
}

// start sets up the globals, loads the script and calls its handler,
// returning the promise (or value) it answered.
func (r *Runner) start(vm *goja.Runtime, l *loop, prog *goja.Program, req quire.ScriptRequest) (goja.Value, error) {
	installURL(vm)
	preludeFn, err := vm.RunProgram(r.prelude)
	if err != nil {
		return nil, err
	}
	call, _ := goja.AssertFunction(preludeFn)
	helpersV, err := call(goja.Undefined(), l.host())
	if err != nil {
		return nil, err
	}
	helpers := helpersV.ToObject(vm)
	l.helpers = helpers

	module, err := vm.RunProgram(prog)
	if err != nil {
		return nil, err
	}
	if module == nil || goja.IsUndefined(module) || goja.IsNull(module) {
		return nil, &ScriptError{Message: "TypeError: the script has no exports", Unloadable: true}
	}
	def := module.ToObject(vm).Get("default")
	if def == nil || goja.IsUndefined(def) || goja.IsNull(def) {
		return nil, &ScriptError{Message: "TypeError: the script has no default export", Unloadable: true}
	}
	handlerObj := def.ToObject(vm)
	handler, ok := goja.AssertFunction(handlerObj.Get("fetch"))
	if !ok {
		return nil, &ScriptError{Message: "TypeError: the default export has no fetch function", Unloadable: true}
	}

	headers := make([]any, 0, len(req.Header))
	for k, vs := range req.Header {
		for _, v := range vs {
			headers = append(headers, []any{k, v})
		}
	}
	var body any
	if req.Body != nil {
		body = vm.NewArrayBuffer(append([]byte(nil), req.Body...))
	}
	method := req.Method
	if method == "" {
		method = http.MethodPost
	}
	newRequest, _ := goja.AssertFunction(helpers.Get("newRequest"))
	request, err := newRequest(helpers, vm.ToValue(req.URL), vm.ToValue(method), vm.ToValue(headers), vm.ToValue(body))
	if err != nil {
		return nil, err
	}
	newContext, _ := goja.AssertFunction(helpers.Get("newContext"))
	execCtx, err := newContext(helpers)
	if err != nil {
		return nil, err
	}
	return handler(handlerObj, request, vm.NewObject(), execCtx)
}

// installURL defines URL and URLSearchParams from goja_nodejs's
// implementation without enabling its require.
func installURL(vm *goja.Runtime) {
	module := vm.NewObject()
	exports := vm.NewObject()
	_ = module.Set("exports", exports)
	url.Require(vm, module)
	for _, name := range []string{"URL", "URLSearchParams"} {
		_ = vm.GlobalObject().DefineDataProperty(name, exports.Get(name), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
}

// scriptError turns what goja returned into the error of a run: an
// interrupt into the limit that caused it, an exception into a
// *ScriptError.
func scriptError(err error) error {
	var interrupted *goja.InterruptedError
	if errors.As(err, &interrupted) {
		if cause, ok := interrupted.Value().(error); ok {
			return fmt.Errorf("jsruntime: %w", cause)
		}
		return fmt.Errorf("jsruntime: interrupted: %v", interrupted.Value())
	}
	var exc *goja.Exception
	if errors.As(err, &exc) {
		return exceptionError(exc.Value(), exc.String())
	}
	var stack *goja.StackOverflowError
	if errors.As(err, &stack) {
		return &ScriptError{Message: "RangeError: Maximum call stack size exceeded", Stack: stack.Error()}
	}
	return err
}

// exceptionError is the *ScriptError of a thrown value; fallback is the
// trace goja recorded, used when the value carries no stack.
func exceptionError(v goja.Value, fallback string) *ScriptError {
	e := &ScriptError{Message: fallback}
	if v == nil {
		return e
	}
	e.Message = v.String()
	if o, ok := v.(*goja.Object); ok {
		if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) && !goja.IsNull(s) {
			e.Stack = s.String()
		}
	}
	if e.Stack == "" {
		e.Stack = fallback
	}
	return e
}
