package quire

import "time"

// JobArgs is the payload of a background job: a struct, stored as JSON,
// whose Kind names the worker that runs it. Kind is a stable name written
// to the database, so renaming it strands the jobs already queued.
type JobArgs interface {
	Kind() string
}

// JobOptions say how a job is queued; the zero value takes the queue's
// defaults.
type JobOptions struct {
	// MaxAttempts is how many times the job is tried before it is kept as
	// failed; 0 takes the queue's default.
	MaxAttempts int
	// Unique skips the job when one of the same kind with the same
	// arguments is already waiting, running or waiting for a retry; the
	// one already queued stands for it.
	Unique bool
	// Delay holds the job back this long before it may run.
	Delay time.Duration
}
