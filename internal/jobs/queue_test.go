package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/store/sqlstore"
	"quire/internal/store/storetest"
	"quire/internal/testutil"
)

// patience bounds every wait for a job; a job normally runs within one
// poll interval.
const patience = 30 * time.Second

// testPoll is the queues' poll interval in the tests.
const testPoll = 20 * time.Millisecond

// eachEngine runs f as a subtest per engine.
func eachEngine(t *testing.T, f func(t *testing.T, open func() *sqlstore.Store)) {
	for name, e := range storetest.Replicas() {
		t.Run(name, func(t *testing.T) { f(t, e(t)) })
	}
}

// countArgs is a test job numbered N.
type countArgs struct {
	N int `json:"n"`
}

func (countArgs) Kind() string { return "test_count" }

// failArgs is a test job that always fails.
type failArgs struct {
	Name string `json:"name"`
}

func (failArgs) Kind() string { return "test_fail" }

// runs counts the attempts of each job and signals each on a channel.
type runs struct {
	mu    sync.Mutex
	count map[int]int
	by    map[int]string
	ran   chan int
}

func newRuns(buffer int) *runs {
	return &runs{count: map[int]int{}, by: map[int]string{}, ran: make(chan int, buffer)}
}

// worker returns a worker recording its runs under the replica's name.
func (r *runs) worker(replica string) func(context.Context, countArgs) error {
	return func(_ context.Context, a countArgs) error {
		r.mu.Lock()
		r.count[a.N]++
		r.by[a.N] = replica
		r.mu.Unlock()
		r.ran <- a.N
		return nil
	}
}

// wait waits for n runs.
func (r *runs) wait(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(patience)
	for i := range n {
		select {
		case <-r.ran:
		case <-timeout:
			t.Fatalf("%d of %d jobs ran within %v", i, n, patience)
		}
	}
}

// newQueue returns a queue on st, stopped when the test ends.
func newQueue(t *testing.T, st *sqlstore.Store, cfg jobs.Config) *jobs.Queue {
	t.Helper()
	if cfg.PollInterval == 0 {
		cfg.PollInterval = testPoll
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	q, err := jobs.New(st, cfg)
	if err != nil {
		t.Fatalf("new queue: %v", err)
	}
	t.Cleanup(func() { _ = q.Stop(context.Background()) })
	return q
}

func start(t *testing.T, q *jobs.Queue) {
	t.Helper()
	if err := q.Start(t.Context()); err != nil {
		t.Fatalf("start: %v", err)
	}
}

func stop(t *testing.T, q *jobs.Queue) {
	t.Helper()
	if err := q.Stop(t.Context()); err != nil {
		t.Fatalf("stop: %v", err)
	}
}

func enqueue(t *testing.T, q *jobs.Queue, args quire.JobArgs, opts quire.JobOptions) int64 {
	t.Helper()
	id, err := q.Enqueue(t.Context(), args, opts)
	if err != nil {
		t.Fatalf("enqueue %v: %v", args, err)
	}
	return id
}

// states returns the state of every job in the database by id.
func states(t *testing.T, st *sqlstore.Store) map[int64]string {
	t.Helper()
	db, _ := st.JobDB()
	rows, err := db.QueryContext(t.Context(), "SELECT id, state FROM river_job")
	if err != nil {
		t.Fatalf("read jobs: %v", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var state string
		if err := rows.Scan(&id, &state); err != nil {
			t.Fatal(err)
		}
		out[id] = state
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestJobRunsOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		st := open()
		q := newQueue(t, st, jobs.Config{})
		r := newRuns(4)
		jobs.Register(q, r.worker("one"))
		start(t, q)
		id := enqueue(t, q, countArgs{N: 7}, quire.JobOptions{})
		r.wait(t, 1)
		stop(t, q)
		if r.count[7] != 1 {
			t.Errorf("job ran %d times, want 1", r.count[7])
		}
		// Completed in the database: no replica runs it again.
		if got := states(t, st)[id]; got != "completed" {
			t.Errorf("job state %q, want completed", got)
		}
	})
}

func TestJobSurvivesRestart(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		st := open()
		first := newQueue(t, st, jobs.Config{})
		r := newRuns(4)
		jobs.Register(first, r.worker("first"))
		id := enqueue(t, first, countArgs{N: 1}, quire.JobOptions{})
		stop(t, first)
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if got := len(r.ran); got != 0 {
			t.Fatalf("%d jobs ran on a queue never started", got)
		}

		st = open()
		second := newQueue(t, st, jobs.Config{})
		jobs.Register(second, r.worker("second"))
		start(t, second)
		r.wait(t, 1)
		stop(t, second)
		if r.count[1] != 1 || r.by[1] != "second" {
			t.Errorf("job ran %d times, last on %q; want once on second", r.count[1], r.by[1])
		}
		if got := states(t, st)[id]; got != "completed" {
			t.Errorf("job state %q, want completed", got)
		}
	})
}

func TestReplicasRunEachJobOnce(t *testing.T) {
	const n = 50
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		r := newRuns(n * 2)
		var queues []*jobs.Queue
		var stores []*sqlstore.Store
		for _, name := range []string{"a", "b"} {
			st := open()
			q := newQueue(t, st, jobs.Config{Workers: 3})
			jobs.Register(q, r.worker(name))
			queues, stores = append(queues, q), append(stores, st)
		}
		for i := range n {
			enqueue(t, queues[i%2], countArgs{N: i}, quire.JobOptions{})
		}
		for _, q := range queues {
			start(t, q)
		}
		r.wait(t, n)
		for _, q := range queues {
			stop(t, q)
		}
		for i := range n {
			if r.count[i] != 1 {
				t.Errorf("job %d ran %d times, want 1", i, r.count[i])
			}
		}
		for id, state := range states(t, stores[0]) {
			if state != "completed" {
				t.Errorf("job %d is %s, want completed", id, state)
			}
		}
		perReplica := map[string]int{}
		for _, by := range r.by {
			perReplica[by]++
		}
		t.Logf("jobs per replica: %v", perReplica)
	})
}

func TestFailingJobRetriedThenKept(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		st := open()
		var logs testutil.SyncBuffer
		q := newQueue(t, st, jobs.Config{
			Backoff: func(int) time.Duration { return time.Millisecond },
			Logger:  slog.New(slog.NewTextHandler(&logs, nil)),
		})
		var mu sync.Mutex
		attempts := 0
		jobs.Register(q, func(ctx context.Context, a failArgs) error {
			mu.Lock()
			defer mu.Unlock()
			attempts++
			return fmt.Errorf("%s failed on attempt %d", a.Name, attempts)
		})
		start(t, q)
		id := enqueue(t, q, failArgs{Name: "export"}, quire.JobOptions{MaxAttempts: 3})

		var failed []jobs.FailedJob
		deadline := time.Now().Add(patience)
		for len(failed) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("job not failed within %v", patience)
			}
			time.Sleep(testPoll)
			var err error
			if failed, err = q.Failed(t.Context(), 10); err != nil {
				t.Fatal(err)
			}
		}
		stop(t, q)
		f := failed[0]
		if f.ID != id || f.Kind != "test_fail" || f.Attempts != 3 || f.FailedAt.IsZero() {
			t.Errorf("failed job %+v, want id %d, kind test_fail, 3 attempts", f, id)
		}
		want := []string{"export failed on attempt 1", "export failed on attempt 2", "export failed on attempt 3"}
		if strings.Join(f.Errors, "|") != strings.Join(want, "|") {
			t.Errorf("errors %q, want %q", f.Errors, want)
		}
		if attempts != 3 {
			t.Errorf("%d attempts, want 3", attempts)
		}
		out := logs.String()
		if strings.Count(out, "job attempt failed; will retry") != 2 || !strings.Contains(out, "job failed for good") ||
			!strings.Contains(out, "export failed on attempt 3") {
			t.Errorf("log lacks the failed attempts:\n%s", out)
		}
	})
}

func TestUniqueJobQueuedOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		st := open()
		q := newQueue(t, st, jobs.Config{})
		unique := quire.JobOptions{Unique: true}
		a := enqueue(t, q, countArgs{N: 1}, unique)
		if b := enqueue(t, q, countArgs{N: 1}, unique); b != a {
			t.Errorf("second unique job got id %d, want the first's %d", b, a)
		}
		if c := enqueue(t, q, countArgs{N: 2}, unique); c == a {
			t.Errorf("unique job with other args got the first's id")
		}
		if d := enqueue(t, q, countArgs{N: 1}, quire.JobOptions{}); d == a {
			t.Errorf("job without Unique got the unique one's id")
		}
		if got := len(states(t, st)); got != 3 {
			t.Errorf("%d jobs stored, want 3", got)
		}
	})
}

func TestEnqueueRejectsBadInput(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		q := newQueue(t, open(), jobs.Config{})
		for field, call := range map[string]func() error{
			"maxAttempts": func() error {
				_, err := q.Enqueue(t.Context(), countArgs{}, quire.JobOptions{MaxAttempts: -1})
				return err
			},
			"args": func() error {
				_, err := q.Enqueue(t.Context(), nil, quire.JobOptions{})
				return err
			},
		} {
			var qe *quire.Error
			if err := call(); !errors.As(err, &qe) || qe.Code != quire.EINVALID || qe.Field != field {
				t.Errorf("err = %v, want EINVALID on %s", err, field)
			}
		}
	})
}

func TestRegisterAfterStartPanics(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		q := newQueue(t, open(), jobs.Config{})
		jobs.Register(q, newRuns(1).worker("x"))
		start(t, q)
		defer func() {
			if recover() == nil {
				t.Error("Register after Start did not panic")
			}
		}()
		jobs.Register(q, func(context.Context, failArgs) error { return nil })
	})
}

func TestDelayedJobWaits(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		st := open()
		q := newQueue(t, st, jobs.Config{})
		later := enqueue(t, q, countArgs{N: 1}, quire.JobOptions{Delay: time.Hour})
		now := enqueue(t, q, countArgs{N: 2}, quire.JobOptions{})
		got := states(t, st)
		if got[later] != "scheduled" || got[now] != "available" {
			t.Errorf("states %v, want %d scheduled and %d available", got, later, now)
		}
	})
}
