package jobs

import (
	"context"
	"errors"
	"log/slog"
	"quire/internal/testutil"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakePurger reports each purge on a channel and answers with n or err;
// it counts collections and answers them with collected or collectErr.
type fakePurger struct {
	calls chan struct{}
	n     int
	err   error
	// block makes a call wait until its context ends.
	block bool

	collections atomic.Int32
	collected   int
	collectErr  error
}

func (f *fakePurger) CollectGarbage(context.Context) (int, error) {
	f.collections.Add(1)
	return f.collected, f.collectErr
}

func (f *fakePurger) PurgeDeletedSpaces(ctx context.Context) (int, error) {
	select {
	case f.calls <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	if f.block {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	return f.n, f.err
}

const patience = 10 * time.Second

func waitCall(t *testing.T, f *fakePurger) {
	t.Helper()
	select {
	case <-f.calls:
	case <-time.After(patience):
		t.Fatal("no purge call")
	}
}

func TestSweeperRunsRepeatedlyAndLogs(t *testing.T) {
	f := &fakePurger{calls: make(chan struct{}, 16), n: 3}
	var logs testutil.SyncBuffer
	s := busySweeper(f, &logs)
	s.Start(context.Background())
	for range 3 {
		waitCall(t, f)
	}
	s.Stop()
	if out := logs.String(); !strings.Contains(out, "purged deleted spaces") || !strings.Contains(out, "count=3") {
		t.Errorf("log lacks the purge count:\n%s", out)
	}
}

func TestSweeperCollectsAfterPurging(t *testing.T) {
	f := &fakePurger{calls: make(chan struct{}, 16), n: 2, collected: 7}
	var logs testutil.SyncBuffer
	s := busySweeper(f, &logs)
	s.Start(context.Background())
	// Sweeps run one after another: once the second purge starts, the
	// first sweep has collected.
	waitCall(t, f)
	waitCall(t, f)
	s.Stop()
	if f.collections.Load() == 0 {
		t.Fatal("no collection after a sweep that purged spaces")
	}
	if out := logs.String(); !strings.Contains(out, "collected unreferenced objects") || !strings.Contains(out, "count=7") {
		t.Errorf("log lacks the collection count:\n%s", out)
	}

	f = &fakePurger{calls: make(chan struct{}, 16), collectErr: errors.New("lost the lease")}
	logs = testutil.SyncBuffer{}
	s = busySweeper(f, &logs)
	s.Start(context.Background())
	for range 3 {
		waitCall(t, f)
	}
	s.Stop()
	if n := f.collections.Load(); n != 0 {
		t.Fatalf("%d collections after sweeps that purged nothing", n)
	}

	f.n = 1
	s.Start(context.Background())
	waitCall(t, f)
	waitCall(t, f)
	s.Stop()
	if out := logs.String(); !strings.Contains(out, "lost the lease") {
		t.Errorf("log lacks the collection error:\n%s", out)
	}
}

func TestSweeperLogsErrorsAndGoesOn(t *testing.T) {
	f := &fakePurger{calls: make(chan struct{}, 16), err: errors.New("db down")}
	var logs testutil.SyncBuffer
	s := busySweeper(f, &logs)
	s.Start(context.Background())
	waitCall(t, f)
	waitCall(t, f)
	s.Stop()
	if out := logs.String(); !strings.Contains(out, "db down") {
		t.Errorf("log lacks the error:\n%s", out)
	}
}

func TestSweeperStopCancelsSweepInProgress(t *testing.T) {
	f := &fakePurger{calls: make(chan struct{}, 1), block: true}
	s := NewSweeper(f, SweeperConfig{Delay: time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	s.Start(context.Background())
	waitCall(t, f)

	stopped := make(chan struct{})
	go func() { s.Stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(patience):
		t.Fatal("Stop did not return while a sweep was running")
	}
	s.Stop() // a second Stop is harmless
}

// running returns the done channel of the sweeper's loop, nil when none
// runs.
func running(s *Sweeper) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}

func TestSweeperEndsWithContext(t *testing.T) {
	f := &fakePurger{calls: make(chan struct{}, 16)}
	s := NewSweeper(f, SweeperConfig{Delay: time.Millisecond, Interval: time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	s.Start(ctx)
	done := running(s)
	if done == nil {
		t.Fatal("Start started no loop")
	}
	s.Start(ctx) // starting twice starts one loop
	if again := running(s); again != done {
		t.Fatal("a second Start started another loop")
	}
	waitCall(t, f)
	cancel()
	// The loop ends on its own once its context is done, with no Stop.
	select {
	case <-done:
	case <-time.After(patience):
		t.Fatal("the loop went on after its context ended")
	}
	s.Stop()
}

// busySweeper is a sweeper of f that sweeps every millisecond and logs to
// logs.
func busySweeper(f Purger, logs *testutil.SyncBuffer) *Sweeper {
	return NewSweeper(f, SweeperConfig{
		Interval: time.Millisecond,
		Delay:    time.Millisecond,
		Logger:   slog.New(slog.NewTextHandler(logs, nil)),
	})
}
