package jobs_test

import (
	"context"
	"errors"
	"testing"

	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/store/sqlstore"
)

// TestEnqueueTxFollowsTheTransaction checks that a job queued with
// EnqueueTx exists exactly when the store's transaction (or savepoint)
// it was queued in commits, on both engines, and then runs.
func TestEnqueueTxFollowsTheTransaction(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		st := open()
		q := newQueue(t, st, jobs.Config{})
		r := newRuns(4)
		jobs.Register(q, r.worker("one"))
		ctx := t.Context()
		boom := errors.New("boom")

		// Outside a transaction there is nothing to queue with.
		if _, err := q.EnqueueTx(ctx, st, countArgs{N: 1}, quire.JobOptions{}); err == nil {
			t.Error("EnqueueTx outside a transaction succeeded")
		}
		// A transaction that fails after queuing takes its job with it.
		err := st.WithTx(ctx, func(tx quire.Store) error {
			if _, err := q.EnqueueTx(ctx, tx, countArgs{N: 2}, quire.JobOptions{}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("failed transaction: %v", err)
		}
		// A savepoint that fails after queuing takes its job alone; the
		// transaction's own job commits.
		var kept int64
		err = st.WithTx(ctx, func(tx quire.Store) error {
			var err error
			if kept, err = q.EnqueueTx(ctx, tx, countArgs{N: 3}, quire.JobOptions{}); err != nil {
				return err
			}
			nested := tx.WithTx(ctx, func(sp quire.Store) error {
				if _, err := q.EnqueueTx(ctx, sp, countArgs{N: 4}, quire.JobOptions{}); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(nested, boom) {
				t.Errorf("failed savepoint: %v", nested)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("committed transaction: %v", err)
		}
		if got := states(t, st); len(got) != 1 || got[kept] != "available" {
			t.Fatalf("jobs after the transactions: %v, want only %d available", got, kept)
		}
		start(t, q)
		r.wait(t, 1)
		if err := q.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
		if r.count[3] != 1 || len(r.count) != 1 {
			t.Errorf("runs: %v, want job 3 once", r.count)
		}
	})
}
