package content

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"

	"quire/internal/quire"
)

// objectKey returns the content address of an object.
func objectKey(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// cache keeps recently read objects in memory. Objects never change, so
// the cache needs no invalidation and is safe across replicas.
type cache struct {
	mu    sync.Mutex
	m     map[string][]byte
	nodes map[string]*trieNode // decoded trie nodes, never modified
	size  int
	limit int
}

// newCache returns a cache holding up to limit bytes.
func newCache(limit int) *cache {
	return &cache{m: map[string][]byte{}, nodes: map[string]*trieNode{}, limit: limit}
}

// node returns a decoded trie node, if cached.
func (c *cache) node(key string) (*trieNode, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.nodes[key]
	return n, ok
}

// putNode caches a decoded trie node; callers never modify it.
func (c *cache) putNode(key string, n *trieNode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.nodes) >= c.limit/256 {
		c.nodes = map[string]*trieNode{}
	}
	c.nodes[key] = n
}

// get returns a cached object.
func (c *cache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok
}

// put caches an object; a full cache starts over.
func (c *cache) put(key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.size+len(b) > c.limit {
		c.m, c.size = map[string][]byte{}, 0
	}
	if _, ok := c.m[key]; !ok {
		c.m[key] = b
		c.size += len(b)
	}
}

// reader reads objects through the cache and, within an edit, sees the
// objects the edit has written but not yet stored.
type reader struct {
	store   quire.ObjectStore
	cache   *cache
	trees   *treeCache
	pending map[string][]byte
	// nodes are the decoded trie nodes among pending, as written: an
	// edit reads back the nodes it wrote without decoding them again.
	nodes map[string]*trieNode
	// leaves are the pending objects known to name no other object (the
	// documents): finding what a revision reaches need not decode them.
	leaves map[string]bool
	// held counts the trie nodes the edit holds decoded under a held key
	// (see trie.store); sealed maps each held key it encoded since to the
	// node's content address.
	held   int
	sealed map[string]string
	reads  atomic.Int64 // objects asked for, wherever they came from
	puts   int64        // bytes of the objects the edit encoded
}

// get returns one object.
func (r *reader) get(ctx context.Context, key string) ([]byte, error) {
	m, err := r.getMany(ctx, []string{key})
	if err != nil {
		return nil, err
	}
	return m[key], nil
}

// getMany returns objects in one round trip for those not already in
// memory. A missing object is an internal error: content is never
// deleted while a revision points at it.
func (r *reader) getMany(ctx context.Context, keys []string) (map[string][]byte, error) {
	r.reads.Add(int64(len(keys)))
	out := make(map[string][]byte, len(keys))
	var missing []string
	for _, k := range keys {
		if b, ok := r.pending[k]; ok {
			out[k] = b
		} else if b, ok := r.cache.get(k); ok {
			out[k] = b
		} else {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	found, err := r.store.Objects(ctx, missing)
	if err != nil {
		return nil, err
	}
	for _, k := range missing {
		b, ok := found[k]
		if !ok {
			return nil, fmt.Errorf("content: object %s is missing", k)
		}
		r.cache.put(k, b)
		out[k] = b
	}
	return out, nil
}

// putLeaf records a new object naming no other object (a document) and
// returns its key.
func (r *reader) putLeaf(b []byte) string {
	k := r.put(b)
	if r.leaves == nil {
		r.leaves = map[string]bool{}
	}
	r.leaves[k] = true
	return k
}

// put records a new object of the edit and returns its key.
func (r *reader) put(b []byte) string {
	k := objectKey(b)
	r.puts += int64(len(b))
	if r.pending == nil {
		r.pending = map[string][]byte{}
	}
	r.pending[k] = b
	return k
}
