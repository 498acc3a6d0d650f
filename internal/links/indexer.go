package links

import (
	"context"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"
)

// DefaultCacheSize is how many revisions' indexes an Indexer keeps when
// Options give no size.
const DefaultCacheSize = 64

// Options configure an Indexer.
type Options struct {
	// AppURLs are the server's own app and API base URLs: links to them,
	// or below them, are in-app.
	AppURLs []string
	// CacheSize is how many revisions' indexes are kept, the least
	// recently used dropped first; DefaultCacheSize when zero or less.
	CacheSize int
}

// Indexer builds the index of a revision once and keeps the most
// recently used ones. Revisions are immutable, so a kept index is never
// stale. Safe for concurrent use; concurrent requests for the same
// revision build it once.
type Indexer struct {
	app    inApp
	cache  *lru.Cache[string, *Index]
	builds singleflight.Group
}

// NewIndexer returns an indexer.
func NewIndexer(o Options) *Indexer {
	size := o.CacheSize
	if size <= 0 {
		size = DefaultCacheSize
	}
	c, _ := lru.New[string, *Index](size) // size > 0 cannot fail
	return &Indexer{app: newInApp(o.AppURLs), cache: c}
}

// Index returns the index of a revision of a space, read from src when
// it is not kept.
func (x *Indexer) Index(ctx context.Context, spaceID, revisionID string, src Source) (*Index, error) {
	key := spaceID + "/" + revisionID
	if ix, ok := x.cache.Get(key); ok {
		return ix, nil
	}
	v, err, _ := x.builds.Do(key, func() (any, error) {
		if ix, ok := x.cache.Get(key); ok {
			return ix, nil
		}
		// A build shared by several requests outlives the one that
		// started it.
		ix, err := build(context.WithoutCancel(ctx), spaceID, revisionID, src, x.app)
		if err != nil {
			return nil, err
		}
		x.cache.Add(key, ix)
		return ix, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Index), nil
}

// Cached reports whether the index of a revision is kept.
func (x *Indexer) Cached(spaceID, revisionID string) bool {
	return x.cache.Contains(spaceID + "/" + revisionID)
}
