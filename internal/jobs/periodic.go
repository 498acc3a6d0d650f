package jobs

import (
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"quire/internal/quire"
)

// Every makes q queue args every interval, from the replica that leads
// the queue (River elects one among the processes on the database), so
// the job is queued once across replicas; the first is queued when that
// replica starts leading. The args' kind needs a worker (Register).
//
// Every must be called before Start; otherwise it panics.
func Every(q *Queue, interval time.Duration, args quire.JobArgs) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.state != queueIdle {
		panic(fmt.Sprintf("jobs: periodic %q added after Start", args.Kind()))
	}
	q.periodic = append(q.periodic, river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) {
			return args, insertOpts(quire.JobOptions{})
		}, &river.PeriodicJobOpts{ID: args.Kind(), RunOnStart: true}))
}
