package service

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
)

// TestQueuedCreatesShareOneTransaction creates spaces of one organization
// while a first create holds the writer: on SQLite those that queue
// meanwhile are all created in one more transaction, each placed after
// the one before; on PostgreSQL each runs in its own.
func TestQueuedCreatesShareOneTransaction(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		busy, err := f.st.Space(ctx, f.space)
		if err != nil {
			t.Fatal(err)
		}
		const n = 10
		held, release := f.st.holdNext()
		views := make([]*SpaceView, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		create := func(i int) {
			wg.Go(func() {
				views[i], errs[i] = f.svc.CreateSpace(context.Background(), f.u, busy.OrgID, SpaceInput{Title: fmt.Sprintf("Space %d", i)})
			})
		}
		create(0)
		<-held
		for i := 1; i < n; i++ {
			create(i)
		}
		if f.st.SerialWrites() {
			waitQueued(t, f.svc.batches, busy.OrgID, n-1)
		}
		release()
		wg.Wait()
		// Batched where writes are serial; elsewhere each create commits
		// on its own, concurrently.
		want := n
		if f.st.SerialWrites() {
			want = 2
		}
		if got := f.st.count(); got != want {
			t.Errorf("%d creates took %d transactions, want %d", n, got, want)
		}
		positions := map[string]bool{}
		for i, v := range views {
			if errs[i] != nil {
				t.Fatalf("create %d: %v", i, errs[i])
			}
			if v.Level != quire.LevelAdmin {
				t.Errorf("create %d answered level %s, want admin", i, v.Level)
			}
			// Concurrent creates on PostgreSQL may read the same last
			// position; the list orders ties by id.
			if positions[v.Space.Position] && f.st.SerialWrites() {
				t.Errorf("create %d took position %q, already taken", i, v.Space.Position)
			}
			positions[v.Space.Position] = true
		}
		l, err := f.svc.Spaces(ctx, f.u, busy.OrgID, quire.Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != n+1 {
			t.Errorf("the organization lists %d spaces, want %d", len(l.Items), n+1)
		}
	})
}

// TestBatchAnswersStaleAsIs runs a job that loses a compare-and-swap on
// the queue without a lock: it runs once and its caller gets the loss,
// to start again from a fresh read, while a job beside it commits.
func TestBatchAnswersStaleAsIs(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		q := &writeQueues{}
		runs := 0
		err := q.do(ctx, f.st, "k", "", func(ctx context.Context, st quire.Store) (bool, error) {
			runs++
			return false, quire.Stale("moved meanwhile")
		})
		if !quire.IsStale(err) || runs != 1 {
			t.Errorf("a stale job ran %d times and answered %v, want once and the loss", runs, err)
		}
		sp, err := f.st.Space(ctx, f.space)
		if err != nil {
			t.Fatal(err)
		}
		title := "Renamed in a batch"
		err = q.do(ctx, f.st, "k", "", func(ctx context.Context, st quire.Store) (bool, error) {
			_, err := st.UpdateSpace(ctx, sp.ID, quire.SpaceUpdate{Title: &title})
			return false, err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := f.st.Space(ctx, sp.ID); got.Title != title {
			t.Errorf("title %q after the batch, want %q", got.Title, title)
		}
	})
}

// waitQueued waits until n operations wait in q under key.
func waitQueued(t *testing.T, q *writeQueues, key string, n int) {
	t.Helper()
	for {
		q.mu.Lock()
		got := 0
		if wq := q.keys[key]; wq != nil {
			got = len(wq.waiting)
		}
		q.mu.Unlock()
		if got == n {
			return
		}
		if t.Context().Err() != nil {
			t.Fatalf("%d operations queued, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}
