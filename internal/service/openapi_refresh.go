package service

import (
	"context"

	"quire/internal/quire"
)

// OpenAPIRefreshJob looks for the specifications due to be fetched again.
// It is queued periodically by the one replica leading the queue, so
// replicas do not refresh twice.
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
	n := 0
	for _, spec := range due {
		// Mark it checked with its job queued, so that a refresh running
		// before the job does not queue it again.
		spec.CheckedAt = o.s.Now()
		var ok bool
		err := o.s.store.WithTx(ctx, func(st quire.Store) error {
			var err error
			if ok, err = st.UpdateOpenAPISpec(ctx, spec, spec.Generation); err != nil || !ok {
				return err
			}
			return o.queue(ctx, st, spec)
		})
		if quire.IsNotFound(err) || err == nil && !ok {
			continue // deleted or changed meanwhile: its own job runs
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
