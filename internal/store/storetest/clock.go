package storetest

import (
	"sync"
	"time"
)

// clock is the time a store of the suite stamps its writes with: it
// stands still, at a millisecond (the precision times are stored at),
// unless the test moves it on.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

// newClock returns a clock standing at the current millisecond.
func newClock() *clock { return &clock{now: time.Now().UTC().Truncate(time.Millisecond)} }

// Now returns the clock's time.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d and returns the time then.
func (c *clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}
