package content

import (
	"context"
	"encoding/json"
	"fmt"

	"quire/internal/quire"
)

// markBatch is how many objects one read of Live asks the store for.
const markBatch = 500

// objectKind tells Live how to read an object and what its references are.
type objectKind int

// Kinds of objects.
const (
	kindLeaf      objectKind = iota // a document or a file object: refers to no object
	kindPagesNode                   // a node of a page map: leaves are page objects
	kindIDsNode                     // a node of a slug or children map: leaves are page ids
	kindFilesNode                   // a node of a file map: leaves are file objects
	kindPage                        // a page object: its document and children map
)

// Live returns the keys of every object reachable from the roots: the
// nodes of the page, slug and file maps, the page objects with their
// documents and children maps, and the file objects. Objects are read from
// st in batches, past the engine's cache, which a walk over everything
// would only flush. An object that is missing or does not decode is an
// error: the set would not be complete, and nothing may be deleted on the
// strength of it.
func Live(ctx context.Context, st quire.ObjectStore, roots quire.ContentRoots) (map[string]struct{}, error) {
	type ref struct {
		key  string
		kind objectKind
	}
	var stack []ref
	for _, l := range []struct {
		keys []string
		kind objectKind
	}{{roots.Pages, kindPagesNode}, {roots.Slugs, kindIDsNode}, {roots.Files, kindFilesNode}} {
		for _, k := range l.keys {
			stack = append(stack, ref{k, l.kind})
		}
	}
	live := map[string]struct{}{}
	for len(stack) > 0 {
		var batch []ref
		for len(stack) > 0 && len(batch) < markBatch {
			r := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if _, seen := live[r.key]; seen || r.key == "" {
				continue
			}
			live[r.key] = struct{}{}
			if r.kind != kindLeaf {
				batch = append(batch, r)
			}
		}
		if len(batch) == 0 {
			continue
		}
		keys := make([]string, len(batch))
		for i, r := range batch {
			keys[i] = r.key
		}
		objs, err := st.Objects(ctx, keys)
		if err != nil {
			return nil, err
		}
		for _, r := range batch {
			b, ok := objs[r.key]
			if !ok {
				return nil, fmt.Errorf("content: object %s is missing", r.key)
			}
			if r.kind == kindPage {
				var p struct {
					Document string `json:"document"`
					Children string `json:"children"`
				}
				if err := json.Unmarshal(b, &p); err != nil {
					return nil, fmt.Errorf("content: decode page %s: %w", r.key, err)
				}
				stack = append(stack, ref{p.Document, kindLeaf}, ref{p.Children, kindIDsNode})
				continue
			}
			var n trieNode
			if err := json.Unmarshal(b, &n); err != nil {
				return nil, fmt.Errorf("content: decode trie node %s: %w", r.key, err)
			}
			for _, e := range n.Entries {
				switch {
				case e.C != "":
					stack = append(stack, ref{e.C, r.kind})
				case r.kind == kindPagesNode:
					stack = append(stack, ref{e.V, kindPage})
				case r.kind == kindFilesNode:
					stack = append(stack, ref{e.V, kindLeaf})
				}
			}
		}
	}
	return live, nil
}
