package service

import (
	"sync"
	"time"

	"quire/internal/quire"
)

// tokenCacheTTL is how long a verified token's record is reused before it
// is read from the database again. Tokens cannot change owner; this bounds
// how long a change to the user (or, later, a revoked token) takes to reach
// every replica.
const tokenCacheTTL = 30 * time.Second

// tokenCacheMax bounds the number of cached tokens; a full cache is
// emptied and refilled on demand.
const tokenCacheMax = 10000

// tokenCache keeps recently verified token records in memory so that a
// request costs no database read for authentication. It keeps the hash of
// the secret, never the secret, and every request still compares the
// presented secret with it in constant time.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]tokenEntry
}

// tokenEntry is a cached token and its user.
type tokenEntry struct {
	token   *quire.Token
	user    *quire.User
	expires time.Time
}

// get returns the cached record of a token id, if fresh.
func (c *tokenCache) get(id string, now time.Time) (tokenEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || now.After(e.expires) {
		return tokenEntry{}, false
	}
	return e, true
}

// put caches a verified token record.
func (c *tokenCache) put(t *quire.Token, u *quire.User, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tokenCacheMax {
		c.m = map[string]tokenEntry{}
	}
	c.m[t.ID] = tokenEntry{token: t, user: u, expires: now.Add(tokenCacheTTL)}
}
