package jobs

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Purger removes for good the spaces deleted long enough ago, and then the
// content objects nothing reaches any more.
type Purger interface {
	// PurgeDeletedSpaces purges spaces and returns how many went.
	PurgeDeletedSpaces(ctx context.Context) (int, error)
	// CollectGarbage deletes unreferenced content objects and returns how
	// many went.
	CollectGarbage(ctx context.Context) (int, error)
}

// Default schedule of a Sweeper.
const (
	DefaultSweepInterval = time.Hour
	DefaultSweepDelay    = 30 * time.Second
)

// SweeperConfig configures a Sweeper; zero fields take the defaults.
type SweeperConfig struct {
	// Interval is the time between two sweeps.
	Interval time.Duration
	// Delay is the time from Start to the first sweep.
	Delay time.Duration
	// Logger receives one line per sweep.
	Logger *slog.Logger
}

// Sweeper calls a Purger periodically until stopped: each sweep purges,
// and collects the objects left unreferenced when it purged anything.
type Sweeper struct {
	purger Purger
	cfg    SweeperConfig

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// NewSweeper returns a Sweeper over p; it does nothing until Start.
func NewSweeper(p Purger, cfg SweeperConfig) *Sweeper {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultSweepInterval
	}
	if cfg.Delay <= 0 {
		cfg.Delay = DefaultSweepDelay
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Sweeper{purger: p, cfg: cfg}
}

// Start runs the sweeps in a goroutine until ctx ends or Stop is called.
// Starting a running Sweeper does nothing.
func (s *Sweeper) Start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done != nil {
		return
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	go s.run(ctx, s.done)
}

// Stop cancels a sweep in progress and waits for the goroutine to end.
// Stopping a Sweeper that is not running does nothing.
func (s *Sweeper) Stop() {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.cancel, s.done = nil, nil
	s.mu.Unlock()
	if done == nil {
		return
	}
	cancel()
	<-done
}

func (s *Sweeper) run(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	timer := time.NewTimer(s.cfg.Delay)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		s.sweep(ctx)
		timer.Reset(s.cfg.Interval)
	}
}

func (s *Sweeper) sweep(ctx context.Context) {
	start := time.Now()
	n, err := s.purger.PurgeDeletedSpaces(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		// Stopped mid-sweep; the next start picks up.
	case err != nil:
		s.cfg.Logger.ErrorContext(ctx, "purging deleted spaces", "err", err)
	default:
		s.cfg.Logger.InfoContext(ctx, "purged deleted spaces", "count", n, "duration", time.Since(start))
	}
	if n == 0 {
		return
	}
	start = time.Now()
	n, err = s.purger.CollectGarbage(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
	case err != nil:
		s.cfg.Logger.ErrorContext(ctx, "collecting unreferenced objects", "err", err)
	default:
		s.cfg.Logger.InfoContext(ctx, "collected unreferenced objects", "count", n, "duration", time.Since(start))
	}
}
