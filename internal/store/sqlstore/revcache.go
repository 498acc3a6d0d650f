package sqlstore

import (
	"sync"

	"quire/internal/quire"
)

// revisionCacheSize is how many revisions a store keeps in memory.
const revisionCacheSize = 8192

// revisionCache keeps revisions read or committed by this store in
// memory, by id. A revision row never changes once written, so the cache
// needs no invalidation and stays right beside other processes writing
// the same database. A full cache starts over.
type revisionCache struct {
	mu sync.Mutex
	m  map[string]*quire.Revision
}

// newRevisionCache returns an empty cache.
func newRevisionCache() *revisionCache {
	return &revisionCache{m: map[string]*quire.Revision{}}
}

// get returns a copy of the cached revision id of the space, if any.
func (c *revisionCache) get(spaceID, id string) (*quire.Revision, bool) {
	c.mu.Lock()
	r, ok := c.m[id]
	c.mu.Unlock()
	if !ok || r.SpaceID != spaceID {
		return nil, false
	}
	return copyRevision(r), true
}

// put caches a copy of r.
func (c *revisionCache) put(r *quire.Revision) {
	r = copyRevision(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= revisionCacheSize {
		c.m = map[string]*quire.Revision{}
	}
	c.m[r.ID] = r
}

// copyRevision returns a copy of r sharing nothing a caller could change.
func copyRevision(r *quire.Revision) *quire.Revision {
	out := *r
	out.Parents = append([]string(nil), r.Parents...)
	if r.Git != nil {
		g := *r.Git
		out.Git = &g
	}
	return &out
}
