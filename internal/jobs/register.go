package jobs

import (
	"context"
	"fmt"

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
// panics, as registering twice or late is a programming error.
func Register[T quire.JobArgs](q *Queue, work func(ctx context.Context, args T) error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var zero T
	if q.state != queueIdle {
		panic(fmt.Sprintf("jobs: worker for %q registered after Start", zero.Kind()))
	}
	if err := river.AddWorkerSafely(q.workers, river.WorkFunc(func(ctx context.Context, job *river.Job[T]) error {
		return work(ctx, job.Args)
	})); err != nil {
		panic(fmt.Sprintf("jobs: worker for %q: %v", zero.Kind(), err))
	}
	q.kinds = append(q.kinds, zero.Kind())
}
