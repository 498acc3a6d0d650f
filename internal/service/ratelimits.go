package service

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"quire/internal/quire"
	"quire/internal/ratelimit"
)

// RateClass names a rate limit: what it counts, and per what.
type RateClass string

// The rate limits.
const (
	// RateCaller counts the API requests of one credential: an API
	// token, a browser session, or the tokens of one integration
	// installation. Each replica counts its own.
	RateCaller RateClass = "caller"
	// RateAddress counts, per client address, the API requests that come
	// without a valid credential. Each replica counts its own.
	RateAddress RateClass = "address"
	// RateSignIn counts password sign-ins per client address, on every
	// replica together (in the database).
	RateSignIn RateClass = "sign-in"
	// RateReset counts password reset requests and resets per client
	// address, on every replica together.
	RateReset RateClass = "reset"
	// RateSearch counts the searches of published sites, from their
	// search box, results page and MCP endpoint, per client address.
	// Each replica counts its own.
	RateSearch RateClass = "search"
)

// RateLimitsConfig is the rate of each limit; a zero rate turns a limit
// off.
type RateLimitsConfig struct {
	Caller, Address, SignIn, Reset, Search ratelimit.Rate
}

// DefaultRateLimits are the limits a server applies unless told
// otherwise. They stop a runaway script or a guessing loop, not a person
// or a client library at work: an API token may send 1,200 requests at
// once and then 20 a second.
func DefaultRateLimits() RateLimitsConfig {
	return RateLimitsConfig{
		Caller:  ratelimit.PerMinute(1200),
		Address: ratelimit.PerMinute(300),
		SignIn:  ratelimit.PerMinute(20),
		Reset:   ratelimit.Rate{Requests: 10, Window: time.Hour},
		Search:  ratelimit.PerMinute(120),
	}
}

// pruneRateLimitsEvery is how often a replica deletes the ended windows
// of the limits kept in the database.
const pruneRateLimitsEvery = 10 * time.Minute

// RateLimits counts requests against the rate limits. The limits every
// replica must apply together (sign-in, password resets: rare requests,
// each already writing to the database) are counted in the database in
// fixed windows; the others, which an API read or a site search would
// otherwise pay a write for, are counted in this process, so N replicas
// let N times the limit through.
type RateLimits struct {
	svc     *Service
	classes map[RateClass]*rateClass
	// pruneAt is when the ended windows are next deleted, in Unix
	// nanoseconds.
	pruneAt atomic.Int64
}

// rateClass is one limit: its rate, its counters when they are this
// process's own (nil when in the database), and the start of its
// refusal's message.
type rateClass struct {
	rate    ratelimit.Rate
	local   *ratelimit.Local
	refusal string
}

// NewRateLimits returns the rate limits of cfg over the service's store.
func NewRateLimits(svc *Service, cfg RateLimitsConfig) *RateLimits {
	l := &RateLimits{svc: svc, classes: map[RateClass]*rateClass{}}
	add := func(class RateClass, r ratelimit.Rate, shared bool, refusal string) {
		if !r.On() {
			return
		}
		c := &rateClass{rate: r, refusal: refusal}
		if !shared {
			c.local = ratelimit.NewLocal(r)
		}
		l.classes[class] = c
	}
	add(RateCaller, cfg.Caller, false, "API rate limit exceeded")
	add(RateAddress, cfg.Address, false, "API rate limit exceeded for this address")
	add(RateSignIn, cfg.SignIn, true, "too many sign-ins from this address")
	add(RateReset, cfg.Reset, true, "too many password reset requests from this address")
	add(RateSearch, cfg.Search, false, "too many searches from this address")
	return l
}

// Take counts one request of key (a credential's id, a client address)
// against class and returns where key stands. A request over the limit
// is ETOOMANY, saying when to come back; the quota is returned with it.
// A limit that is off (or nil RateLimits) counts nothing and returns a
// zero quota.
func (l *RateLimits) Take(ctx context.Context, class RateClass, key string) (ratelimit.Quota, error) {
	if l == nil {
		return ratelimit.Quota{}, nil
	}
	c := l.classes[class]
	if c == nil {
		return ratelimit.Quota{}, nil
	}
	now := l.svc.now()
	var q ratelimit.Quota
	if c.local != nil {
		q = c.local.Take(key, now)
	} else {
		start, end := c.rate.WindowAt(now)
		hits, until, err := l.svc.store.CountRequest(ctx, string(class)+":"+key, start, end)
		if err != nil {
			return q, err
		}
		q = c.rate.Counted(hits, until, now)
		l.prune(ctx, now)
	}
	if !q.Allowed {
		return q, quire.Errorf(quire.ETOOMANY, "%s: try again in %s", c.refusal, waitText(q.RetrySeconds()))
	}
	return q, nil
}

// waitText says a wait of s seconds in the unit a person would: seconds
// under two minutes, minutes under two hours, then hours, rounded up.
func waitText(s int64) string {
	n, unit := s, "second"
	switch {
	case s >= 2*3600:
		n, unit = (s+3599)/3600, "hour"
	case s >= 120:
		n, unit = (s+59)/60, "minute"
	}
	if n != 1 {
		unit += "s"
	}
	return strconv.FormatInt(n, 10) + " " + unit
}

// prune deletes the ended windows kept in the database, at most once
// every pruneRateLimitsEvery in this process.
func (l *RateLimits) prune(ctx context.Context, now time.Time) {
	at := l.pruneAt.Load()
	if now.UnixNano() < at || !l.pruneAt.CompareAndSwap(at, now.Add(pruneRateLimitsEvery).UnixNano()) {
		return
	}
	if err := l.svc.store.PruneRequestCounts(ctx, now); err != nil {
		l.svc.log.WarnContext(ctx, "pruning the rate limits' ended windows", "err", err)
	}
}
