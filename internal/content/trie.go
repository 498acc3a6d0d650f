package content

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// The trie spends 5 bits of a key's hash per level; below maxDepth levels
// keys whose 60 hash bits collide share a bucket node.
const (
	levelBits = 5
	maxDepth  = 12
)

// trieNode is one node of a persistent hash-array-mapped trie. Bitmap has
// a bit per occupied slot and Entries holds them in slot order; a bucket
// node (at maxDepth) has no bitmap and its entries, all leaves, are sorted
// by key. The trie is canonical: no child holds a single leaf, so the same
// set of keys and values always has the same root.
type trieNode struct {
	Bitmap  uint32      `json:"b,omitempty"`
	Entries []trieEntry `json:"e"`
}

// trieEntry is a leaf (K and V) or a pointer to a child node (C).
type trieEntry struct {
	K string `json:"k,omitempty"`
	V string `json:"v,omitempty"`
	C string `json:"c,omitempty"`
}

// keyHash spreads keys over the trie.
func keyHash(k string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(k))
	return h.Sum64()
}

// slot returns the slot of a hash at a depth.
func slot(h uint64, depth int) uint32 { return uint32(h>>(uint(depth)*levelBits)) & 31 }

// trie reads and writes trie nodes through a reader.
type trie struct {
	r *reader
}

// load returns a node the caller may modify; "" is the empty node.
// Decoded nodes are cached, so the copy is what keeps them immutable.
func (t trie) load(ctx context.Context, key string) (*trieNode, error) {
	n, err := t.peek(ctx, key)
	if err != nil {
		return nil, err
	}
	return n.clone(), nil
}

// peek returns a node the caller only reads, shared with the caches.
func (t trie) peek(ctx context.Context, key string) (*trieNode, error) {
	if key == "" {
		return &trieNode{}, nil
	}
	if n, ok := t.r.cache.node(key); ok {
		return n, nil
	}
	if n, ok := t.r.nodes[key]; ok {
		t.r.reads.Add(1)
		return n, nil
	}
	b, err := t.r.get(ctx, key)
	if err != nil {
		return nil, err
	}
	n := &trieNode{}
	if err := json.Unmarshal(b, n); err != nil {
		return nil, fmt.Errorf("content: decode trie node %s: %w", key, err)
	}
	if _, pending := t.r.pending[key]; pending {
		if t.r.nodes == nil {
			t.r.nodes = map[string]*trieNode{}
		}
		t.r.nodes[key] = n
	} else {
		t.r.cache.putNode(key, n)
	}
	return n, nil
}

// clone copies a node so that changing the copy leaves the original as
// it was.
func (n *trieNode) clone() *trieNode {
	return &trieNode{Bitmap: n.Bitmap, Entries: append([]trieEntry(nil), n.Entries...)}
}

// heldPrefix starts the key of a trie node an edit changed and holds
// decoded without having encoded it yet. A held key never leaves the edit:
// seal gives the node's content address, wherever a root is stored or
// compared with a stored one.
const heldPrefix = "~"

// held reports whether key names a node held by the edit.
func held(key string) bool { return strings.HasPrefix(key, heldPrefix) }

// store keeps a changed node in the edit and returns its held key; an
// empty node is "". Nothing is encoded yet: a node that later changes of
// the same edit replace is never encoded, and one that stays is encoded
// once, by seal, however many changes went through it.
func (t trie) store(n *trieNode) string {
	if len(n.Entries) == 0 {
		return ""
	}
	t.r.held++
	k := heldPrefix + strconv.Itoa(t.r.held)
	if t.r.nodes == nil {
		t.r.nodes = map[string]*trieNode{}
	}
	t.r.nodes[k] = n // the callers drop n once stored
	return k
}

// seal returns the content address of the trie rooted at key, encoding
// each held node under it once, as an object of the edit; any other key
// is returned as it is. The bytes and so the addresses are those an eager
// encoding of every change would have given.
func (t trie) seal(key string) string {
	if !held(key) {
		return key
	}
	if k, ok := t.r.sealed[key]; ok {
		return k
	}
	n := t.r.nodes[key]
	out := &trieNode{Bitmap: n.Bitmap, Entries: make([]trieEntry, len(n.Entries))}
	for i, e := range n.Entries {
		e.C = t.seal(e.C)
		out.Entries[i] = e
	}
	k := t.r.put(encodeNode(out))
	t.r.nodes[k] = out
	if t.r.sealed == nil {
		t.r.sealed = map[string]string{}
	}
	t.r.sealed[key] = k
	return k
}

// Get returns the value of a key.
func (t trie) Get(ctx context.Context, root, k string) (string, bool, error) {
	h, key := keyHash(k), root
	for depth := 0; key != ""; depth++ {
		n, err := t.peek(ctx, key)
		if err != nil {
			return "", false, err
		}
		if depth == maxDepth {
			i := sort.Search(len(n.Entries), func(i int) bool { return n.Entries[i].K >= k })
			if i < len(n.Entries) && n.Entries[i].K == k {
				return n.Entries[i].V, true, nil
			}
			return "", false, nil
		}
		bit := uint32(1) << slot(h, depth)
		if n.Bitmap&bit == 0 {
			return "", false, nil
		}
		e := n.Entries[bits.OnesCount32(n.Bitmap&(bit-1))]
		if e.C == "" {
			if e.K == k {
				return e.V, true, nil
			}
			return "", false, nil
		}
		key = e.C
	}
	return "", false, nil
}

// Set returns the root of the trie with k set to v.
func (t trie) Set(ctx context.Context, root, k, v string) (string, error) {
	return t.set(ctx, root, 0, keyHash(k), k, v)
}

func (t trie) set(ctx context.Context, key string, depth int, h uint64, k, v string) (string, error) {
	n, err := t.load(ctx, key)
	if err != nil {
		return "", err
	}
	if depth == maxDepth {
		i := sort.Search(len(n.Entries), func(i int) bool { return n.Entries[i].K >= k })
		if i < len(n.Entries) && n.Entries[i].K == k {
			if n.Entries[i].V == v {
				return key, nil
			}
			n.Entries[i].V = v
		} else {
			n.Entries = append(n.Entries[:i], append([]trieEntry{{K: k, V: v}}, n.Entries[i:]...)...)
		}
		return t.store(n), nil
	}
	bit := uint32(1) << slot(h, depth)
	pos := bits.OnesCount32(n.Bitmap & (bit - 1))
	if n.Bitmap&bit == 0 {
		n.Bitmap |= bit
		n.Entries = append(n.Entries[:pos], append([]trieEntry{{K: k, V: v}}, n.Entries[pos:]...)...)
		return t.store(n), nil
	}
	e := n.Entries[pos]
	switch {
	case e.C != "":
		c, err := t.set(ctx, e.C, depth+1, h, k, v)
		if err != nil {
			return "", err
		}
		if c == e.C {
			return key, nil
		}
		n.Entries[pos] = trieEntry{C: c}
	case e.K == k:
		if e.V == v {
			return key, nil
		}
		n.Entries[pos].V = v
	default:
		c, err := t.set(ctx, "", depth+1, keyHash(e.K), e.K, e.V)
		if err != nil {
			return "", err
		}
		if c, err = t.set(ctx, c, depth+1, h, k, v); err != nil {
			return "", err
		}
		n.Entries[pos] = trieEntry{C: c}
	}
	return t.store(n), nil
}

// Delete returns the root of the trie without k.
func (t trie) Delete(ctx context.Context, root, k string) (string, error) {
	out, _, err := t.del(ctx, root, 0, keyHash(k), k)
	return out, err
}

func (t trie) del(ctx context.Context, key string, depth int, h uint64, k string) (string, bool, error) {
	if key == "" {
		return "", false, nil
	}
	n, err := t.load(ctx, key)
	if err != nil {
		return "", false, err
	}
	if depth == maxDepth {
		i := sort.Search(len(n.Entries), func(i int) bool { return n.Entries[i].K >= k })
		if i == len(n.Entries) || n.Entries[i].K != k {
			return key, false, nil
		}
		n.Entries = append(n.Entries[:i], n.Entries[i+1:]...)
		return t.store(n), true, nil
	}
	bit := uint32(1) << slot(h, depth)
	if n.Bitmap&bit == 0 {
		return key, false, nil
	}
	pos := bits.OnesCount32(n.Bitmap & (bit - 1))
	e := n.Entries[pos]
	if e.C == "" {
		if e.K != k {
			return key, false, nil
		}
		n.Bitmap &^= bit
		n.Entries = append(n.Entries[:pos], n.Entries[pos+1:]...)
		return t.store(n), true, nil
	}
	c, found, err := t.del(ctx, e.C, depth+1, h, k)
	if err != nil || !found {
		return key, found, err
	}
	switch child, err := t.peek(ctx, c); {
	case err != nil:
		return "", false, err
	case c == "":
		n.Bitmap &^= bit
		n.Entries = append(n.Entries[:pos], n.Entries[pos+1:]...)
	case len(child.Entries) == 1 && child.Entries[0].C == "":
		n.Entries[pos] = child.Entries[0] // keep the trie canonical
	default:
		n.Entries[pos] = trieEntry{C: c}
	}
	return t.store(n), true, nil
}

// Walk calls fn for every key and value, reading each level of the trie
// in one round trip.
func (t trie) Walk(ctx context.Context, root string, fn func(k, v string) error) error {
	frontier := []string{}
	if root != "" {
		frontier = append(frontier, root)
	}
	for len(frontier) > 0 {
		var fetch []string
		for _, key := range frontier {
			if _, ok := t.r.nodes[key]; !ok {
				fetch = append(fetch, key)
			}
		}
		t.r.reads.Add(int64(len(frontier) - len(fetch)))
		objs, err := t.r.getMany(ctx, fetch)
		if err != nil {
			return err
		}
		var next []string
		for _, key := range frontier {
			n, ok := t.r.nodes[key] // held by the edit, or decoded already
			if !ok {
				n = &trieNode{}
				if err := json.Unmarshal(objs[key], n); err != nil {
					return fmt.Errorf("content: decode trie node %s: %w", key, err)
				}
			}
			for _, e := range n.Entries {
				if e.C != "" {
					next = append(next, e.C)
				} else if err := fn(e.K, e.V); err != nil {
					return err
				}
			}
		}
		frontier = next
	}
	return nil
}

// Diff calls fn for every key whose value differs between tries a and b,
// with "" for a side where the key is absent. Subtrees with equal roots
// are skipped, so the cost follows the differences, not the size.
func (t trie) Diff(ctx context.Context, a, b string, fn func(k, va, vb string) error) error {
	if a == b {
		return nil
	}
	na, err := t.peek(ctx, a)
	if err != nil {
		return err
	}
	nb, err := t.peek(ctx, b)
	if err != nil {
		return err
	}
	if na.Bitmap == 0 || nb.Bitmap == 0 {
		// Buckets or an empty side: compare the leaves under each.
		return t.diffLeaves(ctx, a, b, fn)
	}
	ia, ib := 0, 0
	for s := uint32(0); s < 32; s++ {
		bit := uint32(1) << s
		var ea, eb *trieEntry
		if na.Bitmap&bit != 0 {
			ea = &na.Entries[ia]
			ia++
		}
		if nb.Bitmap&bit != 0 {
			eb = &nb.Entries[ib]
			ib++
		}
		switch {
		case ea == nil && eb == nil:
		case ea != nil && eb != nil && ea.C != "" && eb.C != "":
			if err := t.Diff(ctx, ea.C, eb.C, fn); err != nil {
				return err
			}
		case ea != nil && eb != nil && ea.C == "" && eb.C == "" && ea.K == eb.K:
			if ea.V != eb.V {
				if err := fn(ea.K, ea.V, eb.V); err != nil {
					return err
				}
			}
		default:
			if err := t.diffLeaves(ctx, subtree(ea), subtree(eb), fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// subtree returns a pseudo-root standing for an entry: its child, or a
// one-leaf node stored nowhere but in memory.
func subtree(e *trieEntry) string {
	if e == nil {
		return ""
	}
	if e.C != "" {
		return e.C
	}
	return leafRef + e.K + "\x00" + e.V
}

// leafRef marks a pseudo-root holding a single leaf.
const leafRef = "leaf:"

// diffLeaves compares two subtrees by listing their leaves.
func (t trie) diffLeaves(ctx context.Context, a, b string, fn func(k, va, vb string) error) error {
	la, err := t.leaves(ctx, a)
	if err != nil {
		return err
	}
	lb, err := t.leaves(ctx, b)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(la)+len(lb))
	for k := range la {
		keys = append(keys, k)
	}
	for k := range lb {
		if _, ok := la[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if la[k] != lb[k] {
			if err := fn(k, la[k], lb[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// leaves lists the leaves under a root or pseudo-root.
func (t trie) leaves(ctx context.Context, root string) (map[string]string, error) {
	out := map[string]string{}
	if len(root) > len(leafRef) && root[:len(leafRef)] == leafRef {
		rest := root[len(leafRef):]
		for i := 0; i < len(rest); i++ {
			if rest[i] == 0 {
				out[rest[:i]] = rest[i+1:]
				break
			}
		}
		return out, nil
	}
	err := t.Walk(ctx, root, func(k, v string) error {
		out[k] = v
		return nil
	})
	return out, err
}
