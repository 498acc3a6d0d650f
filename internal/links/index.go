package links

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// Source is the revision an index is built from; a content.Snapshot is
// one.
type Source interface {
	// Tree returns the page tree, top-level pages first, in order.
	Tree(ctx context.Context) ([]*content.TreeNode, error)
	// Files returns the files of the revision.
	Files(ctx context.Context) ([]*quire.File, error)
	// Document returns the stored JSON of a page's document, nil when it
	// has none.
	Document(ctx context.Context, p *quire.RevisionPage) ([]byte, error)
}

// Page is a page of an indexed revision.
type Page struct {
	Page *quire.RevisionPage
	// Path is the page's path in the revision.
	Path string
	// Children are the page's direct children, in order.
	Children []*content.TreeNode
	// order is the page's rank in tree order.
	order int
}

// Location is a page where a target is referenced, and the block of its
// first reference there ("" for a reference of the page itself).
type Location struct {
	Page string
	Node string
}

// Usage is a target referenced in a revision, with the pages referencing
// it.
type Usage struct {
	// Target is the reference, normalized: an anchor names its page, a
	// page or anchor in the same space names no space.
	Target   document.Ref
	Relation Relation
	Status   Status
	// Locations are the referencing pages, in tree order.
	Locations []Location
	// Operations are the operations openapi-operation blocks show of an
	// OpenAPI specification, each once, in order of appearance.
	Operations []Operation
	// Key identifies the target and relation; the same in every revision.
	Key string
	// sortKey orders usages by first appearance in tree order.
	sortKey string
}

// SortKey orders usages by where they first appear in tree order; keys
// are unique within an index.
func (u Usage) SortKey() string { return u.sortKey }

// Index is everything a revision references, derived from the revision
// alone.
type Index struct {
	// SpaceID and RevisionID name the indexed revision.
	SpaceID, RevisionID string
	pages               map[string]*Page
	files               map[string]*quire.File
	usages              []*Usage
	byKey               map[string]*Usage
	// pageLinks and fileLinks are the pages referencing a page (itself
	// left out) and a file, in tree order.
	pageLinks map[string][]string
	fileLinks map[string][]string
}

// found is a reference of a page being indexed.
type found struct {
	page string
	Found
}

// build indexes a revision of a space; inApp tells in-app URLs.
func build(ctx context.Context, spaceID, revisionID string, src Source, app inApp) (*Index, error) {
	tree, err := src.Tree(ctx)
	if err != nil {
		return nil, err
	}
	files, err := src.Files(ctx)
	if err != nil {
		return nil, err
	}
	ix := &Index{SpaceID: spaceID, RevisionID: revisionID, pages: map[string]*Page{},
		files: make(map[string]*quire.File, len(files)), byKey: map[string]*Usage{},
		pageLinks: map[string][]string{}, fileLinks: map[string][]string{}}
	for _, f := range files {
		ix.files[f.ID] = f
	}
	var order []*Page
	var add func(nodes []*content.TreeNode)
	add = func(nodes []*content.TreeNode) {
		for _, n := range nodes {
			p := &Page{Page: n.Page, Path: n.Path, Children: n.Children, order: len(order)}
			ix.pages[n.Page.ID] = p
			order = append(order, p)
			add(n.Children)
		}
	}
	add(tree)
	anchors := map[string]map[string]struct{}{}
	var refs []found
	for _, p := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, f := range PageRefs(p.Page) {
			refs = append(refs, found{page: p.Page.ID, Found: f})
		}
		if p.Page.Type != quire.PageDocument {
			continue
		}
		raw, err := src.Document(ctx, p.Page)
		if err != nil {
			return nil, err
		}
		if raw == nil {
			continue
		}
		doc, err := document.ParseStored(raw)
		if err != nil {
			return nil, fmt.Errorf("links: page %s: %w", p.Page.ID, err)
		}
		anchors[p.Page.ID] = Anchors(doc)
		for _, f := range DocumentRefs(doc) {
			refs = append(refs, found{page: p.Page.ID, Found: f})
		}
	}
	for i, f := range refs {
		t := ix.normalize(f.Ref, f.page)
		key := string(f.Relation) + "\x00" + refKey(t)
		u := ix.byKey[key]
		if u == nil {
			u = &Usage{Target: t, Relation: f.Relation, Key: key, Status: ix.status(t, anchors, app),
				sortKey: fmt.Sprintf("%010d", i)}
			ix.byKey[key] = u
			ix.usages = append(ix.usages, u)
		}
		if f.Operation != (Operation{}) && !slices.Contains(u.Operations, f.Operation) {
			u.Operations = append(u.Operations, f.Operation)
		}
		if n := len(u.Locations); n == 0 || u.Locations[n-1].Page != f.page {
			u.Locations = append(u.Locations, Location{Page: f.page, Node: f.Node})
		}
		ix.backlink(t, f.page)
	}
	return ix, nil
}

// backlink records that page references the target t.
func (ix *Index) backlink(t document.Ref, page string) {
	var m map[string][]string
	var target string
	switch {
	case t.Space != "":
		return
	case t.Kind == document.RefPage || t.Kind == document.RefAnchor:
		if t.Page == page {
			return
		}
		m, target = ix.pageLinks, t.Page
	case t.Kind == document.RefFile:
		m, target = ix.fileLinks, t.File
	default:
		return
	}
	if l := m[target]; len(l) == 0 || l[len(l)-1] != page {
		m[target] = append(l, page)
	}
}

// normalize makes references to the same target equal: an anchor
// without a page is in the page holding it, and the space of the index
// is no other space.
func (ix *Index) normalize(r document.Ref, page string) document.Ref {
	if r.Space == ix.SpaceID {
		r.Space = ""
	}
	if r.Kind == document.RefAnchor && r.Page == "" && r.Space == "" {
		r.Page = page
	}
	return r
}

// status checks a normalized target against the revision. OpenAPI
// specifications live outside it: their references are ok here, and
// checked when read (Filter.OpenAPI).
func (ix *Index) status(t document.Ref, anchors map[string]map[string]struct{}, app inApp) Status {
	switch t.Kind {
	case document.RefURL:
		if app.match(t.URL) {
			return StatusInApp
		}
		return StatusOK
	}
	if t.Space != "" {
		return StatusOK
	}
	switch t.Kind {
	case document.RefPage:
		if _, ok := ix.pages[t.Page]; !ok {
			return StatusBroken
		}
	case document.RefAnchor:
		if _, ok := ix.pages[t.Page]; !ok {
			return StatusBroken
		}
		if _, ok := anchors[t.Page][t.Anchor]; !ok {
			return StatusBroken
		}
	case document.RefFile:
		if _, ok := ix.files[t.File]; !ok {
			return StatusBroken
		}
	case document.RefReusableContent:
		return StatusBroken
	}
	return StatusOK
}

// refKey identifies a normalized reference.
func refKey(r document.Ref) string {
	return strings.Join([]string{r.Kind, r.Space, r.Page, r.Anchor, r.File, r.URL, r.User, r.Collection,
		r.ReusableContent, r.Spec}, "\x00")
}
