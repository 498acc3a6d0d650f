package jobs

import (
	"context"
	"errors"
	"log/slog"
	"quire/internal/testutil"
	"strings"
	"testing"
	"time"
)

// fakePurger reports each call on a channel and answers with n or err.
type fakePurger struct {
	calls chan struct{}
	n     int
	err   error
	// block makes a call wait until its context ends.
	block bool
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
	s := NewSweeper(f, SweeperConfig{
		Interval: time.Millisecond,
		Delay:    time.Millisecond,
		Logger:   slog.New(slog.NewTextHandler(&logs, nil)),
	})
	s.Start(context.Background())
	for range 3 {
		waitCall(t, f)
	}
	s.Stop()
	if out := logs.String(); !strings.Contains(out, "purged deleted spaces") || !strings.Contains(out, "count=3") {
		t.Errorf("log lacks the purge count:\n%s", out)
	}
}

func TestSweeperLogsErrorsAndGoesOn(t *testing.T) {
	f := &fakePurger{calls: make(chan struct{}, 16), err: errors.New("db down")}
	var logs testutil.SyncBuffer
	s := NewSweeper(f, SweeperConfig{
		Interval: time.Millisecond,
		Delay:    time.Millisecond,
		Logger:   slog.New(slog.NewTextHandler(&logs, nil)),
	})
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

func TestSweeperEndsWithContext(t *testing.T) {
	f := &fakePurger{calls: make(chan struct{}, 16)}
	s := NewSweeper(f, SweeperConfig{Delay: time.Millisecond, Interval: time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	s.Start(ctx)
	s.Start(ctx) // starting twice starts one loop
	waitCall(t, f)
	cancel()
	s.Stop()
}
