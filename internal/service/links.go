package service

import (
	"context"

	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/links"
	"quire/internal/quire"
)

// Links reads the content references of spaces and change requests: the
// links of a revision with their status, and the backlinks of its pages
// and files. Each revision is indexed once and kept in memory; references
// to OpenAPI specifications are checked against the organization's
// specifications on each read.
type Links struct {
	svc     *Service
	indexer *links.Indexer
	// ops are the operations of OpenAPI specification versions, by
	// version id.
	ops *lru.Cache[string, map[links.Operation]bool]
}

// NewLinks returns the links reader over svc; opts name the server's own
// URLs (for in-app links) and the size of the cache.
func NewLinks(svc *Service, opts links.Options) *Links {
	return &Links{svc: svc, indexer: links.NewIndexer(opts), ops: newOpenAPIOpsCache()}
}

// LinkQuery selects the links of a list.
type LinkQuery struct {
	// Page keeps the links found in this page; "" keeps all.
	Page string
	// Status keeps the links of this status; "" keeps all.
	Status links.Status
	// BrokenContext keeps, for a change request, the broken links broken
	// in that context; "" keeps all.
	BrokenContext links.BrokenContext
	// List is the page of the list to return.
	List quire.Page
}

// LinkList is a page of links of a revision.
type LinkList struct {
	// Content is the revision read.
	Content *Content
	// Index is its index, which resolves the pages and files of usages.
	Index *links.Index
	// Usages is the page of links.
	Usages *quire.List[links.Usage]
	// Stats count the links before the status and context filters.
	Stats links.Stats
}

// index opens the revision ref names and returns it with its index.
func (l *Links) index(ctx context.Context, ref ContentRef) (*Content, *links.Index, error) {
	c, err := l.svc.Content(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	ix, err := l.indexer.Index(ctx, c.Space.ID, c.Rev.ID, c.Snapshot)
	if err != nil {
		return nil, nil, err
	}
	return c, ix, nil
}

// List returns links of the revision ref names. For a change request, the
// stats count the links it broke (broken in its revision, not in the
// space's), and q.BrokenContext tells those apart. A page that is not in
// the revision is ENOTFOUND; a bad cursor is EINVALID.
func (l *Links) List(ctx context.Context, ref ContentRef, q LinkQuery) (*LinkList, error) {
	c, ix, err := l.index(ctx, ref)
	if err != nil {
		return nil, err
	}
	if q.Page != "" {
		if _, err := ix.Page(q.Page); err != nil {
			return nil, err
		}
	}
	f := links.Filter{Page: q.Page, Status: q.Status}
	if c.ChangeRequest != nil {
		_, base, err := l.index(ctx, ContentRef{SpaceID: c.Space.ID})
		if err != nil {
			return nil, err
		}
		f.Base, f.Context = base, q.BrokenContext
	}
	if f.OpenAPI, err = l.openAPICheck(ctx, c.Space.OrgID, ix, f.Base); err != nil {
		return nil, err
	}
	usages, stats := ix.Usages(f)
	page, err := PageSlice(usages, q.List, links.Usage.SortKey)
	if err != nil {
		return nil, err
	}
	return &LinkList{Content: c, Index: ix, Usages: page, Stats: stats}, nil
}

// Backlinks is a page of the pages referencing a page or a file.
type Backlinks struct {
	// Content is the revision read.
	Content *Content
	// Index is its index.
	Index *links.Index
	// Pages is the page of referencing pages, in tree order.
	Pages *quire.List[*links.Page]
}

// PageBacklinks returns the pages of the revision ref names that link to
// a page (the page itself left out). A page not in the revision is
// ENOTFOUND.
func (l *Links) PageBacklinks(ctx context.Context, ref ContentRef, pageID string, p quire.Page) (*Backlinks, error) {
	return l.backlinks(ctx, ref, p, func(ix *links.Index) ([]*links.Page, error) { return ix.PageBacklinks(pageID) })
}

// FileBacklinks returns the pages of the revision ref names that use a
// file. A file not in the revision is ENOTFOUND.
func (l *Links) FileBacklinks(ctx context.Context, ref ContentRef, fileID string, p quire.Page) (*Backlinks, error) {
	return l.backlinks(ctx, ref, p, func(ix *links.Index) ([]*links.Page, error) { return ix.FileBacklinks(fileID) })
}

// backlinks pages through the pages find returns.
func (l *Links) backlinks(ctx context.Context, ref ContentRef, p quire.Page, find func(*links.Index) ([]*links.Page, error)) (*Backlinks, error) {
	c, ix, err := l.index(ctx, ref)
	if err != nil {
		return nil, err
	}
	pages, err := find(ix)
	if err != nil {
		return nil, err
	}
	out, err := PageSlice(pages, p, (*links.Page).SortKey)
	if err != nil {
		return nil, err
	}
	return &Backlinks{Content: c, Index: ix, Pages: out}, nil
}
