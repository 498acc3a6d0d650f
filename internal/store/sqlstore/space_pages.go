package sqlstore

import (
	"container/list"
	"context"
	"slices"
	"sync"

	"quire/internal/quire"
)

// spacePageBudget bounds how many spaces the pages of spacePages hold
// together: 256 full pages of 100, a few megabytes.
const spacePageBudget = 25600

// spacePages keeps pages of the space list this process read, each with
// the organization's space version (see spaceVersion) it was read at. A
// page is served again only while the version in the database is still
// the one it was read at: triggers raise the version in the transaction
// of every write to a space of the organization, whichever process or
// replica makes it, so an unchanged version means unchanged rows. The
// least recently used pages go first once they hold more than budget
// spaces.
type spacePages struct {
	mu     sync.Mutex
	budget int
	held   int                            // spaces in the pages held
	m      map[spacePageKey]*list.Element // of *spacePage
	lru    list.List                      // most recently used first
}

// spacePageKey names a page: the filter, the cursor it starts after and
// its size.
type spacePageKey struct {
	org      string
	parent   string
	byParent bool
	cursor   string
	size     int
}

// spacePage is one cached page. Its spaces are never handed out: callers
// get copies, so nothing they do reaches the cache.
type spacePage struct {
	key     spacePageKey
	version int64
	items   []quire.Space
	more    bool
}

// newSpacePages returns a cache holding up to budget spaces.
func newSpacePages(budget int) *spacePages {
	return &spacePages{budget: max(budget, 1), m: map[spacePageKey]*list.Element{}}
}

// get returns copies of the spaces of the page at key if it was read at
// version.
func (c *spacePages) get(key spacePageKey, version int64) (items []*quire.Space, more, ok bool) {
	c.mu.Lock()
	el, found := c.m[key]
	if !found || el.Value.(*spacePage).version != version {
		c.mu.Unlock()
		return nil, false, false
	}
	c.lru.MoveToFront(el)
	pg := el.Value.(*spacePage)
	c.mu.Unlock()
	// pg is never changed once stored (put replaces it), so copying it
	// needs no lock.
	return copySpaces(pg.items), pg.more, true
}

// put stores a page read at version, replacing what key held.
func (c *spacePages) put(key spacePageKey, version int64, items []*quire.Space, more bool) {
	if len(items) > c.budget {
		return
	}
	pg := &spacePage{key: key, version: version, items: make([]quire.Space, len(items)), more: more}
	for i, sp := range items {
		pg.items[i] = cloneSpace(sp)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, found := c.m[key]; found {
		old := el.Value.(*spacePage)
		if old.version > version {
			return // a newer read got there first
		}
		c.held -= len(old.items)
		c.lru.Remove(el)
	}
	c.m[key] = c.lru.PushFront(pg)
	c.held += len(pg.items)
	for c.held > c.budget {
		old := c.lru.Remove(c.lru.Back()).(*spacePage)
		delete(c.m, old.key)
		c.held -= len(old.items)
	}
}

// copySpaces returns pointers to fresh copies of spaces, allocated
// together.
func copySpaces(spaces []quire.Space) []*quire.Space {
	buf := slices.Clone(spaces)
	out := make([]*quire.Space, len(buf))
	for i := range buf {
		ownPointers(&buf[i])
		out[i] = &buf[i]
	}
	return out
}

// cloneSpace copies a space with everything it points to.
func cloneSpace(sp *quire.Space) quire.Space {
	c := *sp
	ownPointers(&c)
	return c
}

// ownPointers replaces what a copied space points to by copies of its
// own.
func ownPointers(sp *quire.Space) {
	if sp.DeletedAt != nil {
		t := *sp.DeletedAt
		sp.DeletedAt = &t
	}
	if sp.MergeRules.Rules != nil {
		sp.MergeRules.Rules = slices.Clone(sp.MergeRules.Rules)
		for i := range sp.MergeRules.Rules {
			sp.MergeRules.Rules[i].Users = slices.Clone(sp.MergeRules.Rules[i].Users)
		}
	}
	if sp.OrgMergeRules != nil {
		r := quire.MergeRules{Type: sp.OrgMergeRules.Type, Rules: slices.Clone(sp.OrgMergeRules.Rules)}
		for i := range r.Rules {
			r.Rules[i].Users = slices.Clone(r.Rules[i].Users)
		}
		sp.OrgMergeRules = &r
	}
}

// spaceVersion returns the organization's space version: the number of
// writes to its spaces so far, which only grows. Read before the rows it
// vouches for, it may be older than they are, which costs a cache miss
// later but never a stale page.
func (s *Store) spaceVersion(ctx context.Context, orgID string) (int64, error) {
	var v int64
	err := s.queryRow(ctx, "SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM space_versions WHERE org_id = ?", orgID).Scan(&v)
	return v, err
}
