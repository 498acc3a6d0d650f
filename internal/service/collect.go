package service

import (
	"context"
	"time"

	"quire/internal/content"
	"quire/internal/quire"
)

// Collection of content objects no revision reaches any more.
const (
	// CollectGrace is how long before a collection begins an object must
	// have been last written for the collection to delete it: far longer
	// than an edit takes from storing its objects to storing its revision,
	// and than the clocks of replicas drift apart.
	CollectGrace = time.Hour
	// CollectLease names the lease a replica holds while it collects.
	CollectLease = "collect-objects"
	// collectLeaseTTL is how long the lease keeps other replicas out if
	// its holder dies. Should a collection outlast it, a second one may
	// start: that only repeats work, since each is safe on its own.
	collectLeaseTTL = time.Hour
)

// CollectGarbage deletes the content objects that no stored revision, of
// any space or change request, reaches any more (those of purged spaces,
// or of edits that stored their objects but not their revision), and
// returns how many went. Objects are shared between spaces and
// revisions, so it marks from every revision's roots and sweeps the rest;
// an object written after the collection began, or within CollectGrace
// before, is spared, since the edit writing it may not have stored its
// revision yet. One replica at a time collects: while another holds the
// lease, it does nothing.
func (s *Service) CollectGarbage(ctx context.Context) (int, error) {
	start, holder := s.Now(), quire.NewID()
	ok, err := s.store.AcquireLease(ctx, CollectLease, holder, start, collectLeaseTTL)
	if err != nil || !ok {
		return 0, err
	}
	defer func() {
		if err := s.store.ReleaseLease(context.WithoutCancel(ctx), CollectLease, holder); err != nil {
			s.log.ErrorContext(ctx, "releasing the collection lease", "err", err)
		}
	}()
	roots, err := s.store.ContentRoots(ctx)
	if err != nil {
		return 0, err
	}
	live, err := content.Live(ctx, s.store, roots)
	if err != nil {
		return 0, err
	}
	return s.store.SweepObjects(ctx, start.Add(-CollectGrace), func(key string) bool {
		_, ok := live[key]
		return ok
	})
}
