package quire

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// ScriptRequest is one HTTP request handed to an integration's script,
// as the dispatcher of a Workers-style runtime would: the script's
// default export receives it in fetch(request, env, ctx).
type ScriptRequest struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
}

// ScriptResponse is what a script's fetch handler answered.
type ScriptResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

// ScriptLogLevel is the level of one console line; the values are the
// published levels of an integration event's trace.
type ScriptLogLevel string

// Console levels: console.debug, console.log and console.info,
// console.warn, console.error.
const (
	ScriptLogDebug ScriptLogLevel = "debug"
	ScriptLogInfo  ScriptLogLevel = "info"
	ScriptLogWarn  ScriptLogLevel = "warn"
	ScriptLogError ScriptLogLevel = "error"
)

// ScriptLog is one line a script wrote to its console.
type ScriptLog struct {
	Time    time.Time
	Level   ScriptLogLevel
	Message string
}

// ScriptRun is the outcome of running a script on one request: its
// answer, when it gave one, and everything it logged, also when it
// failed.
type ScriptRun struct {
	Response *ScriptResponse
	Logs     []ScriptLog
}

// ScriptRunner runs integration scripts in a sandbox with limits on CPU
// time and memory, their outbound requests going through the server's
// fetch guard.
type ScriptRunner interface {
	// RunScript loads script, an ES module bundle whose default export
	// has fetch(request, env, ctx), and hands it req. The error reports
	// a script that failed to load, threw, or went past its limits;
	// the run still holds what it logged before. An error that would
	// come back on every run of the same script (see LastingScriptError)
	// says so.
	RunScript(ctx context.Context, script string, req ScriptRequest) (ScriptRun, error)
}

// LastingScriptError is implemented by the errors of script runs that
// fail the same way however often they are tried: a script that does
// not compile or has no handler, or one stopped by its CPU time or
// memory limit. Other failures (an exception, which may come from a
// request the script made, or the wall time limit) may pass.
type LastingScriptError interface {
	error
	// Lasting reports whether trying the run again would fail again.
	Lasting() bool
}

// IsLastingScriptError reports whether err, or an error it wraps, is a
// LastingScriptError that says it is lasting.
func IsLastingScriptError(err error) bool {
	var l LastingScriptError
	return errors.As(err, &l) && l.Lasting()
}
