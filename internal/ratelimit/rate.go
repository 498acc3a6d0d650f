// Package ratelimit holds what rate limits are made of: a rate (requests
// per window) as configured, the quota a request leaves its caller, the
// in-process counters of the limits each replica keeps for itself, and
// the key of a client address. Which requests count against which limit
// is decided by service.RateLimits.
package ratelimit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxRequests bounds the requests a rate allows per window.
const MaxRequests = 1_000_000_000

// Rate is a number of requests allowed per window. A rate of zero
// requests is no limit at all.
type Rate struct {
	Requests int
	Window   time.Duration
}

// PerMinute is a rate of n requests a minute.
func PerMinute(n int) Rate { return Rate{Requests: n, Window: time.Minute} }

// On reports whether the rate limits anything.
func (r Rate) On() bool { return r.Requests > 0 && r.Window > 0 }

// String writes the rate as ParseRate reads it: "600/1m", or "0" for no
// limit.
func (r Rate) String() string {
	if !r.On() {
		return "0"
	}
	return strconv.Itoa(r.Requests) + "/" + shortDuration(r.Window)
}

// shortDuration writes a window of whole hours, minutes or seconds in
// that unit alone (1h, 15m, 30s), any other as time.Duration does.
func shortDuration(d time.Duration) string {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if d%u.unit == 0 {
			return strconv.FormatInt(int64(d/u.unit), 10) + u.name
		}
	}
	return d.String()
}

// ParseRate reads a rate: "N/WINDOW" with WINDOW a duration of at least
// a second (such as 600/1m, 10/15m or 5000/1h), "N" for N a minute, and
// "0" or "off" for no limit.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "off" {
		return Rate{}, nil
	}
	n, w, hasWindow := strings.Cut(s, "/")
	requests, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || requests < 0 {
		return Rate{}, fmt.Errorf("%q: want N/WINDOW such as 600/1m, N for N a minute, or 0 for no limit", s)
	}
	if requests > MaxRequests {
		return Rate{}, fmt.Errorf("%q: at most %d requests per window", s, MaxRequests)
	}
	if requests == 0 {
		return Rate{}, nil
	}
	r := Rate{Requests: requests, Window: time.Minute}
	if hasWindow {
		d, err := time.ParseDuration(strings.TrimSpace(w))
		if err != nil {
			return Rate{}, fmt.Errorf("%q: the window %q is not a duration such as 1m or 1h", s, w)
		}
		if d < time.Second {
			return Rate{}, errors.New(strconv.Quote(s) + ": the window must be at least 1s")
		}
		r.Window = d
	}
	return r, nil
}

// Set implements flag.Value.
func (r *Rate) Set(s string) error {
	v, err := ParseRate(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// WindowAt returns the fixed window of the rate holding t: windows are
// whole multiples of Window counted from the zero time, so that every
// process on a database agrees on them.
func (r Rate) WindowAt(t time.Time) (start, end time.Time) {
	start = t.Truncate(r.Window)
	return start, start.Add(r.Window)
}

// Counted is the quota in a fixed window ending at end, once hits
// requests were counted in it, this one included.
func (r Rate) Counted(hits int, end, now time.Time) Quota {
	q := Quota{Limit: r.Requests, Remaining: max(r.Requests-hits, 0), Reset: end, Allowed: hits <= r.Requests}
	if !q.Allowed {
		q.RetryAfter = end.Sub(now)
	}
	return q
}
