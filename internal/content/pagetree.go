package content

import (
	"context"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"

	"quire/internal/quire"
)

// PageTree is a revision's whole page tree with its indexes, built once
// per set of pages and shared by every reader of it: neither the tree nor
// the pages in it may be modified.
type PageTree struct {
	// Nodes are the top-level pages in order, each with its children.
	Nodes  []*TreeNode
	byID   map[string]*TreeNode
	byPath map[string]*TreeNode
	byGit  map[string]*TreeNode
	parent map[string]*TreeNode
	size   int
}

// Node returns the page of an id, nil for none.
func (t *PageTree) Node(id string) *TreeNode { return t.byID[id] }

// AtPath returns the page at a path, nil for none.
func (t *PageTree) AtPath(path string) *TreeNode { return t.byPath[path] }

// AtGitPath returns the page a Git import read from a repository path,
// nil for none.
func (t *PageTree) AtGitPath(path string) *TreeNode { return t.byGit[path] }

// Parent returns the page above a page, nil at the top level.
func (t *PageTree) Parent(id string) *TreeNode { return t.parent[id] }

// Len is how many pages the tree holds.
func (t *PageTree) Len() int { return t.size }

// newPageTree indexes a tree.
func newPageTree(nodes []*TreeNode) *PageTree {
	t := &PageTree{Nodes: nodes, byID: map[string]*TreeNode{}, byPath: map[string]*TreeNode{},
		byGit: map[string]*TreeNode{}, parent: map[string]*TreeNode{}}
	var index func(nodes []*TreeNode, up *TreeNode)
	index = func(nodes []*TreeNode, up *TreeNode) {
		for _, n := range nodes {
			t.size++
			t.byID[n.Page.ID] = n
			if _, taken := t.byPath[n.Path]; !taken {
				t.byPath[n.Path] = n
			}
			if g := n.Page.Git; g != nil && g.Path != "" {
				t.byGit[g.Path] = n
			}
			if up != nil {
				t.parent[n.Page.ID] = up
			}
			index(n.Children, n)
		}
	}
	index(nodes, nil)
	return t
}

// treeCache keeps the page trees of recent revisions, keyed by the root
// of their pages, which names the pages exactly: a tree never changes
// under its key, so the cache needs no invalidation and is right across
// replicas. It holds at most limit pages in all; a tree larger than that
// is built for each read and not kept.
//
// The decoded pages of the trees are kept too, by object key, up to limit
// of them: the tree of a revision after an edit decodes only the pages
// the edit changed.
type treeCache struct {
	mu       sync.Mutex
	trees    *lru.Cache[string, *PageTree]
	decoded  *lru.Cache[string, *quire.RevisionPage]
	pages    int
	limit    int
	building singleflight.Group
}

// newTreeCache returns a cache of trees holding up to limit pages.
func newTreeCache(limit int) *treeCache {
	c := &treeCache{limit: limit}
	// Eviction is by pages held, below; the count only bounds the list.
	c.trees, _ = lru.NewWithEvict(1<<16, func(_ string, t *PageTree) { c.pages -= t.size })
	c.decoded, _ = lru.New[string, *quire.RevisionPage](max(limit, 1))
	return c
}

// sharedPages returns every page of the snapshot's revision, decoded
// once per page object and shared: callers must not modify them.
func (s *Snapshot) sharedPages(ctx context.Context, tc *treeCache) ([]*quire.RevisionPage, error) {
	var keys, missing []string
	out := map[string]*quire.RevisionPage{}
	if err := s.t.Walk(ctx, s.Rev.Pages, func(_, k string) error {
		keys = append(keys, k)
		if p, ok := tc.decoded.Get(k); ok {
			out[k] = p
		} else {
			missing = append(missing, k)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	fresh, err := s.pagesByKey(ctx, missing)
	if err != nil {
		return nil, err
	}
	for i, k := range missing {
		out[k] = fresh[i]
		tc.decoded.Add(k, fresh[i])
	}
	pages := make([]*quire.RevisionPage, len(keys))
	for i, k := range keys {
		pages[i] = out[k]
	}
	return pages, nil
}

// get returns the tree cached under key, if any.
func (c *treeCache) get(key string) (*PageTree, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.trees.Get(key)
}

// put keeps a tree, dropping the least recently read ones while the
// cache holds more than its limit.
func (c *treeCache) put(key string, t *PageTree) {
	if t.size > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.trees.Contains(key) {
		return
	}
	c.trees.Add(key, t)
	c.pages += t.size
	for c.pages > c.limit {
		c.trees.RemoveOldest()
	}
}

// SharedTree returns the revision's page tree with its indexes, from the
// engine's cache when another read built it; concurrent first reads build
// it once. The tree is shared: callers must not modify it or its pages.
// Within an edit, whose roots may name nodes still being written, the
// tree is built for the caller alone.
func (s *Snapshot) SharedTree(ctx context.Context) (*PageTree, error) {
	key := s.Rev.Pages
	tc := s.r.trees
	if s.r.pending != nil || tc == nil {
		nodes, err := s.Tree(ctx)
		if err != nil {
			return nil, err
		}
		return newPageTree(nodes), nil
	}
	if t, ok := tc.get(key); ok {
		return t, nil
	}
	v, err, _ := tc.building.Do(key, func() (any, error) {
		if t, ok := tc.get(key); ok {
			return t, nil
		}
		// One read builds for all who wait: its end does not end theirs.
		pages, err := s.sharedPages(context.WithoutCancel(ctx), tc)
		if err != nil {
			return nil, err
		}
		t := newPageTree(buildTree(pages))
		tc.put(key, t)
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*PageTree), nil
}
