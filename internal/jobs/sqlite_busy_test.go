package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/store/sqlite"
	"quire/internal/store/sqlstore"
	"quire/internal/testutil"
)

// userArgs is a test job that creates a user, as a job writing to the
// store would.
type userArgs struct {
	Email string `json:"email"`
}

func (userArgs) Kind() string { return "test_user" }

// TestSQLiteQueueBesideWrites runs the queue, whose jobs write to the
// store, beside goroutines writing as API requests do, on a store that
// tries each transaction once: a busy database would fail a write or a
// job instead of being retried away.
func TestSQLiteQueueBesideWrites(t *testing.T) {
	const (
		writers   = 4
		perWriter = 40
		jobCount  = 60
	)
	path := filepath.Join(t.TempDir(), "quire.db")
	st, err := sqlite.Open(t.Context(), path, sqlstore.WithAttempts(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })

	var logs testutil.SyncBuffer
	q := newQueue(t, st, jobs.Config{Workers: 4, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	done := make(chan struct{}, jobCount)
	jobs.Register(q, func(ctx context.Context, a userArgs) error {
		err := st.CreateUser(ctx, &quire.User{ID: quire.NewID(), DisplayName: "job", Email: a.Email})
		if err == nil {
			done <- struct{}{}
		}
		return err
	})
	start(t, q)

	var wg sync.WaitGroup
	errs := make(chan error, writers*perWriter*2+jobCount)
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				email := fmt.Sprintf("w%d-%d@example.com", w, i)
				// A single write, and a transaction of two, as requests make.
				if err := st.CreateUser(t.Context(), &quire.User{ID: quire.NewID(), DisplayName: "w", Email: email}); err != nil {
					errs <- fmt.Errorf("create user: %w", err)
				}
				err := st.WithTx(t.Context(), func(tx quire.Store) error {
					if err := tx.CreateUser(t.Context(), &quire.User{ID: quire.NewID(), DisplayName: "t", Email: "tx-" + email}); err != nil {
						return err
					}
					_, err := tx.CountUsers(t.Context())
					return err
				})
				if err != nil {
					errs <- fmt.Errorf("transaction: %w", err)
				}
			}
		})
	}
	wg.Go(func() {
		for i := range jobCount {
			if _, err := q.Enqueue(t.Context(), userArgs{Email: fmt.Sprintf("job-%d@example.com", i)}, quire.JobOptions{MaxAttempts: 1}); err != nil {
				errs <- fmt.Errorf("enqueue: %w", err)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range jobCount {
		select {
		case <-done:
		case <-time.After(patience):
			t.Fatalf("%d of %d jobs done within %v", i, jobCount, patience)
		}
	}
	stop(t, q)
	failed, err := q.Failed(t.Context(), jobCount)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range failed {
		t.Errorf("job %d failed: %q", f.ID, f.Errors)
	}
	n, err := st.CountUsers(t.Context())
	if want := writers*perWriter*2 + jobCount; err != nil || n != want {
		t.Errorf("%d users, %v; want %d", n, err, want)
	}
	if out := logs.String(); strings.Contains(out, "locked") || strings.Contains(out, "busy") || strings.Contains(out, "BUSY") {
		t.Errorf("the queue logged a busy database:\n%s", out)
	}
}
