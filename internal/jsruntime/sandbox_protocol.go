package jsruntime

import (
	"encoding/gob"
	"io"
	"net/http"
	"sync"
	"time"

	"quire/internal/quire"
)

// The parent and a sandbox child speak in frames: one gob-encoded frame
// value after another, each with exactly one field set. The parent
// writes a start frame, then answers to fetches; the child writes
// fetches, aborts, console lines and, last, the result.
type frame struct {
	// Start opens a run (parent to child, first frame).
	Start *startFrame
	// Fetch asks the parent to send a request (child to parent).
	Fetch *fetchFrame
	// Abort cancels the fetch of that id (child to parent).
	Abort int64
	// Answer is what a fetch got (parent to child).
	Answer *answerFrame
	// Log is a console line kept (child to parent).
	Log *quire.ScriptLog
	// Result ends the run (child to parent, last frame).
	Result *resultFrame
}

// startFrame is the run a child is to make.
type startFrame struct {
	// Code is the script as transform left it.
	Code    string
	Request quire.ScriptRequest
	Limits  limits
}

// limits are the parts of Config a child applies.
type limits struct {
	CPUTime, WallTime   time.Duration
	Memory, MaxBody     int64
	MaxFetches, MaxLogs int
	// NoFetch is set when the parent has no Doer: fetch is refused.
	NoFetch bool
}

// fetchFrame is one request the script sends.
type fetchFrame struct {
	ID     int64
	Method string
	URL    string
	Header http.Header
	Body   []byte
}

// answerFrame is the answer to the fetch of ID, or why it failed.
type answerFrame struct {
	ID     int64
	Err    string
	Status int
	// URL is the address that answered, after redirects.
	URL    string
	Header http.Header
	Body   []byte
}

// resultFrame is how the run ended: a response, or an error.
type resultFrame struct {
	Response *quire.ScriptResponse
	Err      *errorFrame
	// Dropped counts the console lines past the bound.
	Dropped int
}

// errorFrame is the error of a run, in a form that crosses the pipe.
type errorFrame struct {
	// Limit names the limit that stopped the run (see limitNames), or is
	// empty.
	Limit string
	// Script is set for a *ScriptError, with its fields below.
	Script     bool
	Message    string
	Stack      string
	Unloadable bool
}

// limitNames name the limit errors in an errorFrame.
func limitNames() map[string]error {
	return map[string]error{"cpu": ErrCPUTime, "memory": ErrMemory, "wall": ErrWallTime, "noanswer": ErrNoAnswer}
}

// framer writes frames to one end of a pipe; it is safe for concurrent
// use.
type framer struct {
	mu  sync.Mutex
	enc *gob.Encoder
}

func newFramer(w io.Writer) *framer { return &framer{enc: gob.NewEncoder(w)} }

// send writes f whole.
func (f *framer) send(fr frame) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.enc.Encode(&fr)
}
