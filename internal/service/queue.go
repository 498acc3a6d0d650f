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
	// EnqueueTx stores a job in the transaction of st, the store handed
	// to a WithTx function: the job is queued if and only if that
	// transaction commits.
	EnqueueTx(ctx context.Context, st quire.Store, args quire.JobArgs, opts quire.JobOptions) (int64, error)
}

// WithQueue sets the job queue; without it, queuing a job fails.
func WithQueue(q Queue) Option { return func(s *Service) { s.queue = q } }

// enqueue queues a job on the service's queue.
func (s *Service) enqueue(ctx context.Context, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	if s.queue == nil {
		return 0, noQueue()
	}
	return s.queue.Enqueue(ctx, args, opts)
}

// enqueueTx queues a job with the writes of st's transaction. State that
// calls for a job (a running Git Sync, a pending event) is committed with
// its job this way, so that no crash between the two leaves work that
// never runs and never fails.
func (s *Service) enqueueTx(ctx context.Context, st quire.Store, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	if s.queue == nil {
		return 0, noQueue()
	}
	return s.queue.EnqueueTx(ctx, st, args, opts)
}

// noQueue is the error of queuing on a server without background jobs.
func noQueue() error {
	return &quire.Error{Code: quire.EUNAVAILABLE, Message: "background jobs are not available on this server"}
}
