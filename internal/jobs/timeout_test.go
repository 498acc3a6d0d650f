package jobs_test

import (
	"context"
	"testing"
	"time"

	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/store/sqlstore"
)

func TestKindTimeoutReplacesTheQueues(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		q := newQueue(t, open(), jobs.Config{JobTimeout: time.Second})
		limits := make(chan time.Duration, 1)
		jobs.Register(q, func(ctx context.Context, _ countArgs) error {
			dl, ok := ctx.Deadline()
			if !ok {
				limits <- 0
				return nil
			}
			limits <- time.Until(dl)
			return nil
		}, jobs.Timeout(time.Hour))
		start(t, q)
		enqueue(t, q, countArgs{N: 1}, quire.JobOptions{})
		select {
		case left := <-limits:
			if left <= time.Minute {
				t.Errorf("the attempt has %v left, want the kind's hour", left)
			}
		case <-time.After(patience):
			t.Fatal("the job did not run")
		}
	})
}
