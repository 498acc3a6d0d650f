package jsruntime

// Errors of a run stopped by one of its limits; RunScript wraps them.
// Each says whether running the script again on the same request would
// stop it the same way (quire.LastingScriptError).
var (
	// ErrCPUTime is a run whose script computed longer than its CPU
	// time limit.
	ErrCPUTime error = &limitError{"script went past its CPU time limit", true}
	// ErrMemory is a run whose script grew the heap past its memory
	// limit.
	ErrMemory error = &limitError{"script went past its memory limit", true}
	// ErrWallTime is a run that had not answered within its wall time
	// limit (waiting on fetches and timers included): slow answers to its
	// requests may be faster next time.
	ErrWallTime error = &limitError{"script went past its wall time limit", false}
	// ErrNoAnswer is a run whose handler neither answered nor had
	// anything left to wait for.
	ErrNoAnswer error = &limitError{"script never answered", true}
)

// limitError is a limit that stopped a run.
type limitError struct {
	msg     string
	lasting bool
}

// Error returns what stopped the run.
func (e *limitError) Error() string { return e.msg }

// Lasting reports whether the same run would be stopped again.
func (e *limitError) Lasting() bool { return e.lasting }

// ScriptError is an exception a script threw, while loading or from its
// handler.
type ScriptError struct {
	// Message is the exception as a string ("Error: boom").
	Message string
	// Stack is its stack trace, when it had one.
	Stack string
	// Unloadable is set when the script cannot run at all: it does not
	// compile, or lacks a default export with a fetch function.
	Unloadable bool
}

// Lasting reports whether every run of the script fails this way: only
// a script that cannot load; an exception may come from a request the
// script made and pass.
func (e *ScriptError) Lasting() bool { return e.Unloadable }

// Error returns the stack trace when there is one, else the message.
func (e *ScriptError) Error() string {
	return "script threw: " + e.trace()
}

// trace is the stack trace when there is one, else the message.
func (e *ScriptError) trace() string {
	if e.Stack != "" {
		return e.Stack
	}
	return e.Message
}
