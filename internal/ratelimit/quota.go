package ratelimit

import (
	"math"
	"time"
)

// Quota is where a caller stands once a request was counted: what the
// X-RateLimit-* headers of its answer say.
type Quota struct {
	// Limit is the requests allowed per window; zero when no limit
	// applied to the request, which then has no quota to tell.
	Limit int
	// Remaining is the requests left before the limit is reached.
	Remaining int
	// Reset is when the caller has its whole limit again.
	Reset time.Time
	// Allowed is false when the request is refused; RetryAfter is then
	// how long the caller waits before the next request may pass.
	Allowed    bool
	RetryAfter time.Duration
}

// ResetUnix is Reset in Unix seconds, rounded up so that a caller waiting
// until then never comes back early.
func (q Quota) ResetUnix() int64 {
	s := q.Reset.Unix()
	if q.Reset.Nanosecond() > 0 {
		s++
	}
	return s
}

// RetrySeconds is RetryAfter in whole seconds, rounded up, at least 1.
func (q Quota) RetrySeconds() int64 {
	return max(int64(math.Ceil(q.RetryAfter.Seconds())), 1)
}
