package ratelimit

import (
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Local counts the requests of each key in this process: one token
// bucket per key (golang.org/x/time/rate), holding Requests tokens and
// refilled at Requests per Window, so a caller may spend its whole limit
// at once and then goes on at the rate. It is safe for concurrent use.
//
// Buckets that are full again are forgotten once a window: a caller
// idle that long starts from a full bucket anyway, so memory follows the
// callers of about the last window.
type Local struct {
	rate    Rate
	refill  rate.Limit
	buckets sync.Map // key → *rate.Limiter
	// nextSweep is when full buckets are next forgotten, in Unix
	// nanoseconds.
	nextSweep atomic.Int64
}

// NewLocal returns the counters of a rate, which must be On.
func NewLocal(r Rate) *Local {
	return &Local{rate: r, refill: rate.Limit(float64(r.Requests) / r.Window.Seconds())}
}

// Take counts one request of key at now and returns the key's quota.
func (l *Local) Take(key string, now time.Time) Quota {
	v, ok := l.buckets.Load(key)
	if !ok {
		v, _ = l.buckets.LoadOrStore(key, rate.NewLimiter(l.refill, l.rate.Requests))
	}
	b := v.(*rate.Limiter)
	allowed := b.AllowN(now, 1)
	tokens := b.TokensAt(now)
	q := Quota{Limit: l.rate.Requests, Remaining: max(int(tokens), 0), Allowed: allowed,
		Reset: now.Add(l.after(float64(l.rate.Requests) - tokens))}
	if !allowed {
		q.RetryAfter = l.after(1 - tokens)
	}
	l.sweep(now)
	return q
}

// after is how long the bucket takes to gain n tokens.
func (l *Local) after(n float64) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(n / float64(l.refill) * float64(time.Second))
}

// sweep forgets the full buckets, at most once a window. A request that
// loaded a bucket just before it was forgotten is counted in the
// forgotten bucket: at most one request per caller goes uncounted then.
func (l *Local) sweep(now time.Time) {
	next := l.nextSweep.Load()
	if now.UnixNano() < next || !l.nextSweep.CompareAndSwap(next, now.Add(l.rate.Window).UnixNano()) {
		return
	}
	full := float64(l.rate.Requests)
	l.buckets.Range(func(k, v any) bool {
		if v.(*rate.Limiter).TokensAt(now) >= full {
			l.buckets.Delete(k)
		}
		return true
	})
}

// Len is the number of keys with a bucket.
func (l *Local) Len() int {
	n := 0
	l.buckets.Range(func(any, any) bool { n++; return true })
	return n
}
