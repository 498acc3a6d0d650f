package content

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"quire/internal/quire"
)

// Snapshot reads one revision's pages, documents and files.
type Snapshot struct {
	Rev *quire.Revision
	r   *reader
	t   trie
}

// decodePage reads a page object.
func decodePage(key string, b []byte) (*quire.RevisionPage, error) {
	p := &quire.RevisionPage{}
	if err := json.Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("content: decode page %s: %w", key, err)
	}
	return p, nil
}

// Page returns a page by id. Returns ENOTFOUND.
func (s *Snapshot) Page(ctx context.Context, id string) (*quire.RevisionPage, error) {
	key, ok, err := s.t.Get(ctx, s.Rev.Pages, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, quire.NotFound("page")
	}
	b, err := s.r.get(ctx, key)
	if err != nil {
		return nil, err
	}
	return decodePage(key, b)
}

// Pages returns every page of the revision, in no particular order.
func (s *Snapshot) Pages(ctx context.Context) ([]*quire.RevisionPage, error) {
	var keys []string
	if err := s.t.Walk(ctx, s.Rev.Pages, func(_, v string) error {
		keys = append(keys, v)
		return nil
	}); err != nil {
		return nil, err
	}
	return s.pagesByKey(ctx, keys)
}

// pagesByKey loads page objects in batches.
func (s *Snapshot) pagesByKey(ctx context.Context, keys []string) ([]*quire.RevisionPage, error) {
	out := make([]*quire.RevisionPage, 0, len(keys))
	const batch = 500
	for i := 0; i < len(keys); i += batch {
		chunk := keys[i:min(i+batch, len(keys))]
		objs, err := s.r.getMany(ctx, chunk)
		if err != nil {
			return nil, err
		}
		for _, k := range chunk {
			p, err := decodePage(k, objs[k])
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// Children returns the pages directly under parent ("" for the top
// level), in order.
func (s *Snapshot) Children(ctx context.Context, parent string) ([]*quire.RevisionPage, error) {
	root := s.Rev.Slugs
	if parent != "" {
		p, err := s.Page(ctx, parent)
		if err != nil {
			return nil, err
		}
		root = p.Children
	}
	var ids []string
	if err := s.t.Walk(ctx, root, func(_, id string) error {
		ids = append(ids, id)
		return nil
	}); err != nil {
		return nil, err
	}
	pages := make([]*quire.RevisionPage, 0, len(ids))
	for _, id := range ids {
		p, err := s.Page(ctx, id)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
	}
	SortPages(pages)
	return pages, nil
}

// SortPages orders sibling pages by position, then id.
func SortPages(pages []*quire.RevisionPage) {
	sort.Slice(pages, func(i, j int) bool {
		if pages[i].Position != pages[j].Position {
			return pages[i].Position < pages[j].Position
		}
		return pages[i].ID < pages[j].ID
	})
}

// Path returns a page's path: the slugs from the top level down to it.
func (s *Snapshot) Path(ctx context.Context, p *quire.RevisionPage) (string, error) {
	parts := []string{p.Slug}
	for parent, depth := p.Parent, 0; parent != ""; depth++ {
		if depth > 1000 {
			return "", fmt.Errorf("content: page %s: parent chain too deep", p.ID)
		}
		pp, err := s.Page(ctx, parent)
		if err != nil {
			return "", err
		}
		parts = append(parts, pp.Slug)
		parent = pp.Parent
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/"), nil
}

// PageByPath finds a page by its path, one slug lookup per segment.
// Returns ENOTFOUND.
func (s *Snapshot) PageByPath(ctx context.Context, path string) (*quire.RevisionPage, error) {
	root := s.Rev.Slugs
	var p *quire.RevisionPage
	for _, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		id, ok, err := s.t.Get(ctx, root, seg)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, quire.NotFound("page")
		}
		if p, err = s.Page(ctx, id); err != nil {
			return nil, err
		}
		root = p.Children
	}
	if p == nil {
		return nil, quire.NotFound("page")
	}
	return p, nil
}

// Document returns the stored JSON of a page's document, or nil when the
// page has none.
func (s *Snapshot) Document(ctx context.Context, p *quire.RevisionPage) ([]byte, error) {
	if p.Document == "" {
		return nil, nil
	}
	return s.r.get(ctx, p.Document)
}

// File returns a file by id. Returns ENOTFOUND.
func (s *Snapshot) File(ctx context.Context, id string) (*quire.File, error) {
	key, ok, err := s.t.Get(ctx, s.Rev.Files, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, quire.NotFound("file")
	}
	b, err := s.r.get(ctx, key)
	if err != nil {
		return nil, err
	}
	f := &quire.File{}
	if err := json.Unmarshal(b, f); err != nil {
		return nil, fmt.Errorf("content: decode file %s: %w", key, err)
	}
	return f, nil
}

// Files returns every file of the revision, ordered by name then id.
func (s *Snapshot) Files(ctx context.Context) ([]*quire.File, error) {
	var keys []string
	if err := s.t.Walk(ctx, s.Rev.Files, func(_, v string) error {
		keys = append(keys, v)
		return nil
	}); err != nil {
		return nil, err
	}
	objs, err := s.r.getMany(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make([]*quire.File, 0, len(keys))
	for _, k := range keys {
		f := &quire.File{}
		if err := json.Unmarshal(objs[k], f); err != nil {
			return nil, fmt.Errorf("content: decode file %s: %w", k, err)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// TreeNode is a page with its path and its children, for reading a whole
// revision at once.
type TreeNode struct {
	Page     *quire.RevisionPage
	Path     string
	Children []*TreeNode
}

// Tree returns the page tree of the revision: top-level pages in order,
// each with its children.
func (s *Snapshot) Tree(ctx context.Context) ([]*TreeNode, error) {
	pages, err := s.Pages(ctx)
	if err != nil {
		return nil, err
	}
	return buildTree(pages), nil
}

// buildTree nests pages under their parents, in order; the pages are
// sorted in place among their siblings.
func buildTree(pages []*quire.RevisionPage) []*TreeNode {
	byParent := map[string][]*quire.RevisionPage{}
	for _, p := range pages {
		byParent[p.Parent] = append(byParent[p.Parent], p)
	}
	var build func(parent, prefix string, depth int) []*TreeNode
	build = func(parent, prefix string, depth int) []*TreeNode {
		kids := byParent[parent]
		SortPages(kids)
		out := make([]*TreeNode, 0, len(kids))
		for _, p := range kids {
			path := p.Slug
			if prefix != "" {
				path = prefix + "/" + p.Slug
			}
			n := &TreeNode{Page: p, Path: path}
			if depth < 1000 {
				n.Children = build(p.ID, path, depth+1)
			}
			out = append(out, n)
		}
		return out
	}
	return build("", "", 0)
}
