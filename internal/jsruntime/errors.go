package jsruntime

import "errors"

// Errors of a run stopped by one of its limits; RunScript wraps them.
var (
	// ErrCPUTime is a run whose script computed longer than its CPU
	// time limit.
	ErrCPUTime = errors.New("script went past its CPU time limit")
	// ErrMemory is a run whose script grew the heap past its memory
	// limit.
	ErrMemory = errors.New("script went past its memory limit")
	// ErrWallTime is a run that had not answered within its wall time
	// limit (waiting on fetches and timers included).
	ErrWallTime = errors.New("script went past its wall time limit")
	// ErrNoAnswer is a run whose handler neither answered nor had
	// anything left to wait for.
	ErrNoAnswer = errors.New("script never answered")
)

// ScriptError is an exception a script threw, while loading or from its
// handler.
type ScriptError struct {
	// Message is the exception as a string ("Error: boom").
	Message string
	// Stack is its stack trace, when it had one.
	Stack string
}

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
