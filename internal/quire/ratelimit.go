package quire

import (
	"context"
	"time"
)

// RateLimitStore counts requests in fixed windows shared by every
// process on the database: the rate limits that must hold across
// replicas (sign-in, password resets).
type RateLimitStore interface {
	// CountRequest counts one request under key in the window from start
	// to end, in one statement, and returns the requests counted in the
	// key's window and when that window ends. A key whose window is older
	// starts again at one; a request dated in an older window than the
	// key's (a replica whose clock is behind) counts in the newer one.
	CountRequest(ctx context.Context, key string, start, end time.Time) (hits int, windowEnd time.Time, err error)
	// PruneRequestCounts forgets the counts of windows that ended at or
	// before t.
	PruneRequestCounts(ctx context.Context, t time.Time) error
}
