package service

import (
	"context"
)

// OpenAPIRefreshJob looks for the specifications due to be fetched again.
// It is queued periodically by the one replica leading the queue, and is
// unique, so replicas do not refresh twice.
type OpenAPIRefreshJob struct{}

// Kind implements quire.JobArgs.
func (OpenAPIRefreshJob) Kind() string { return "openapi_refresh" }

// refreshBatch is how many specifications one refresh queues at most; the
// next refresh takes the rest.
const refreshBatch = 500

// RunRefresh runs an OpenAPIRefreshJob.
func (o *OpenAPISpecs) RunRefresh(ctx context.Context, _ OpenAPIRefreshJob) error {
	n, err := o.Refresh(ctx)
	if n > 0 {
		o.log.InfoContext(ctx, "openapi specifications queued for refresh", "count", n)
	}
	return err
}

// Refresh queues the processing of the specifications given by URL that
// were last fetched more than the refresh interval ago (with the
// validators of their last answer, so an unchanged file is not sent
// again), and of those whose processing was never queued or never
// finished. It returns how many it queued.
func (o *OpenAPISpecs) Refresh(ctx context.Context) (int, error) {
	due, err := o.s.store.OpenAPISpecsDue(ctx, o.s.Now().Add(-o.opts.RefreshInterval), refreshBatch)
	if err != nil {
		return 0, err
	}
	for i, spec := range due {
		if err := o.queue(ctx, spec); err != nil {
			return i, err
		}
	}
	return len(due), nil
}
