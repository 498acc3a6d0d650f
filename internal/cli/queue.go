package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river/rivertype"

	"quire/internal/jobs"
	"quire/internal/quire"
)

// queueStopTimeout bounds the wait for jobs in progress on shutdown; jobs
// still running then are cancelled and run again later.
const queueStopTimeout = 10 * time.Second

// newQueue returns the background job queue on the store's database,
// with River plugins such as tracing. Workers for each job kind are
// registered on it before it starts.
func newQueue(st quire.Store, log *slog.Logger, plugins ...rivertype.Plugin) (*jobs.Queue, error) {
	db, ok := st.(jobs.Database)
	if !ok {
		return nil, fmt.Errorf("the store %T cannot hold the job queue", st)
	}
	q, err := jobs.New(db, jobs.Config{Logger: log, Plugins: plugins})
	if err != nil {
		return nil, fmt.Errorf("creating the job queue: %w", err)
	}
	return q, nil
}

// stopQueue stops the queue, waiting up to queueStopTimeout for jobs in
// progress.
func stopQueue(ctx context.Context, q *jobs.Queue, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, queueStopTimeout)
	defer cancel()
	if err := q.Stop(ctx); err != nil {
		log.Warn("stopping the job queue", "err", err)
	}
}
