package service

import (
	"context"

	"quire/internal/quire"
)

// Queue is the durable background job queue the service hands work to
// (implemented by internal/jobs). A job queued is stored in the database
// and run once, on some replica, by the worker registered for its kind.
type Queue interface {
	// Enqueue stores a job and returns its id; for a unique job already
	// queued, the id of that job. On SQLite it must not be called inside
	// a store transaction: the queue writes on the same single writer
	// connection.
	Enqueue(ctx context.Context, args quire.JobArgs, opts quire.JobOptions) (int64, error)
}

// WithQueue sets the job queue; without it, queuing a job fails.
func WithQueue(q Queue) Option { return func(s *Service) { s.queue = q } }

// enqueue queues a job on the service's queue.
func (s *Service) enqueue(ctx context.Context, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	if s.queue == nil {
		return 0, &quire.Error{Code: quire.EUNAVAILABLE, Message: "background jobs are not available on this server"}
	}
	return s.queue.Enqueue(ctx, args, opts)
}
