package content

import (
	"time"

	"quire/internal/quire"
)

// Store is what the engine needs from persistence.
type Store interface {
	quire.ObjectStore
	quire.RevisionStore
}

// Engine reads and writes the content of revisions.
type Engine struct {
	cache *cache
	trees *treeCache
	lasts *lastPositions
	now   func() time.Time
}

// Option configures an Engine.
type Option func(*Engine)

// WithClock replaces the clock (tests).
func WithClock(now func() time.Time) Option { return func(e *Engine) { e.now = now } }

// WithCacheBytes sets how many bytes of objects the engine keeps in memory.
func WithCacheBytes(n int) Option { return func(e *Engine) { e.cache = newCache(n) } }

// WithTreePages sets how many pages the engine keeps in the page trees
// of recent revisions.
func WithTreePages(n int) Option { return func(e *Engine) { e.trees = newTreeCache(n) } }

// New returns an engine with a 64 MiB object cache and the page trees of
// recent revisions up to 50,000 pages.
func New(opts ...Option) *Engine {
	e := &Engine{cache: newCache(64 << 20), trees: newTreeCache(50_000), lasts: newLastPositions(4096), now: time.Now}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Snapshot returns a read view of a revision, reading objects from st.
func (e *Engine) Snapshot(st Store, rev *quire.Revision) *Snapshot {
	r := &reader{store: st, cache: e.cache, trees: e.trees}
	return &Snapshot{Rev: rev, r: r, t: trie{r: r}}
}
