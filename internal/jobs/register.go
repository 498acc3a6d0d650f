package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"quire/internal/quire"
)

// Register makes q run work for the jobs of T's kind. T is the args type
// given to Enqueue; a job's args arrive decoded from their JSON. An error
// returned fails the attempt: the job is tried again after a backoff,
// until its attempts run out and it is kept as failed (see Failed). The
// context ends when the attempt times out or the queue stops.
//
// Register must be called before Start, once per kind; otherwise it
// panics, as registering twice or late is a programming error. Options
// may set a time limit of its own for the kind's attempts.
func Register[T quire.JobArgs](q *Queue, work func(ctx context.Context, args T) error, opts ...WorkerOption) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var zero T
	if q.state != queueIdle {
		panic(fmt.Sprintf("jobs: worker for %q registered after Start", zero.Kind()))
	}
	w := &worker[T]{work: work}
	for _, o := range opts {
		o(&w.options)
	}
	if err := river.AddWorkerSafely(q.workers, w); err != nil {
		panic(fmt.Sprintf("jobs: worker for %q: %v", zero.Kind(), err))
	}
	q.kinds = append(q.kinds, zero.Kind())
}

// WorkerOption configures the worker of one kind of job.
type WorkerOption func(*workerOptions)

// workerOptions are what WorkerOptions set.
type workerOptions struct {
	timeout time.Duration
}

// Timeout bounds each attempt of the kind's jobs by d instead of the
// queue's JobTimeout: for work known to take long, such as a Git import.
func Timeout(d time.Duration) WorkerOption {
	return func(o *workerOptions) { o.timeout = d }
}

// worker runs one kind of job with its options.
type worker[T quire.JobArgs] struct {
	river.WorkerDefaults[T]
	options workerOptions
	work    func(ctx context.Context, args T) error
}

// Work implements river.Worker.
func (w *worker[T]) Work(ctx context.Context, job *river.Job[T]) error { return w.work(ctx, job.Args) }

// Timeout implements river.Worker: zero keeps the queue's limit.
func (w *worker[T]) Timeout(*river.Job[T]) time.Duration { return w.options.timeout }
