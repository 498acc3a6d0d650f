package quire

import (
	"context"
	"time"
)

// ContentRoots are the distinct, non-empty map roots of every stored
// revision, of every space and change request: where marking the objects
// still in use starts.
type ContentRoots struct {
	Pages []string // page maps: page id → page object
	Slugs []string // top-level children maps: slug → page id
	Files []string // file maps: file id → file object
}

// CollectorStore is what collecting unreferenced objects needs from
// persistence. Each PutObjects stamps the objects it writes, those it
// finds already stored included, with the time, so that a collection
// spares every object written after it began marking.
type CollectorStore interface {
	// ContentRoots returns the map roots of every stored revision.
	ContentRoots(ctx context.Context) (ContentRoots, error)
	// SweepObjects deletes the objects last written before the given time
	// for which live reports false, and returns how many went.
	SweepObjects(ctx context.Context, writtenBefore time.Time, live func(key string) bool) (int, error)
	// AcquireLease takes or renews the named lease for holder until
	// now+ttl; it reports false, changing nothing, while another holder
	// has it unexpired at now.
	AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error)
	// ReleaseLease gives the named lease up if holder has it.
	ReleaseLease(ctx context.Context, name, holder string) error
}
