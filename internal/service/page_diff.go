package service

import (
	"context"
	"reflect"
	"sort"
	"time"

	"quire/internal/document"
	"quire/internal/quire"
)

// DiffSide names one side of a comparison: the content to read and the
// addresses at which the app shows that content's pages and files, to
// which the side's references resolve.
type DiffSide struct {
	Ref ContentRef
	At  SpaceAddresses
}

// ContentDiff is what changed between two revisions of a space: every
// page added, removed, edited, moved or renamed, with the blocks of each
// compared.
type ContentDiff struct {
	// From and To are the two revisions read, older first.
	From, To *Content
	// Pages are the changed pages, in path order (a removed page by its
	// old path).
	Pages []PageDiff
}

// PageSide is a page as one side of a comparison has it. Read resolves
// the page's references in that side's revision, for the reader's
// renderer.
type PageSide struct {
	Page     *quire.RevisionPage
	Path     string
	Document *document.Document
	Read     *SpaceRead
}

// PageDiff is one changed page: how it changed, each side (Old nil for
// an added page, New nil for a removed one) and its top-level blocks
// compared by key.
type PageDiff struct {
	ChangedPage
	Old, New *PageSide
	Blocks   []BlockDiff
}

// Kinds of change of a block between two revisions of a page.
const (
	BlockAdded     = "added"
	BlockRemoved   = "removed"
	BlockChanged   = "changed"
	BlockUnchanged = "unchanged"
)

// BlockDiff is a top-level block of a page compared between two sides:
// matched by key, changed when document.BlockHash differs. Old and New
// are the block on each side, nil on the side that lacks it. Moved marks
// a block both sides hold in a different order relative to the others;
// it is listed where the new side has it.
type BlockDiff struct {
	Key      string
	Change   string
	Old, New *document.Node
	Moved    bool
}

// ChangeRequestDiff compares a change request's content with the space
// revision it is based on; from and to give the addresses at which the
// app shows each (their Refs are set here). Returns ENOTFOUND for an
// unknown change request.
func (s *Service) ChangeRequestDiff(ctx context.Context, spaceID, idOrNumber string, from, to SpaceAddresses) (*ContentDiff, error) {
	cr, err := s.ChangeRequest(ctx, spaceID, idOrNumber)
	if err != nil {
		return nil, err
	}
	return s.DiffContent(ctx,
		DiffSide{Ref: ContentRef{SpaceID: spaceID, Revision: cr.Base()}, At: from},
		DiffSide{Ref: ContentRef{SpaceID: spaceID, ChangeRequest: cr.ID}, At: to})
}

// CompareRevisions compares two revisions of a space, by id. A revision
// that is not one of the space's is EINVALID naming "from" or "to", as
// is comparing a revision with itself.
func (s *Service) CompareRevisions(ctx context.Context, spaceID, from, to string, fromAt, toAt SpaceAddresses) (*ContentDiff, error) {
	for _, f := range []struct{ name, id string }{{"from", from}, {"to", to}} {
		if f.id == "" {
			return nil, quire.Invalid(f.name, "required: a revision of the space")
		}
		if _, err := s.store.Revision(ctx, spaceID, f.id); quire.IsNotFound(err) {
			return nil, quire.Invalid(f.name, "%q is not a revision of this space", f.id)
		} else if err != nil {
			return nil, err
		}
	}
	if from == to {
		return nil, quire.Invalid("to", "is the same revision as from; choose two different revisions")
	}
	return s.DiffContent(ctx,
		DiffSide{Ref: ContentRef{SpaceID: spaceID, Revision: from}, At: fromAt},
		DiffSide{Ref: ContentRef{SpaceID: spaceID, Revision: to}, At: toAt})
}

// DiffContent compares the content of two sides of one space: the pages
// whose objects differ (shared parts of the two page maps are skipped,
// so only changed pages are decoded), each with its blocks compared.
func (s *Service) DiffContent(ctx context.Context, from, to DiffSide) (*ContentDiff, error) {
	old, err := s.openSpaceRead(ctx, from.Ref, from.At)
	if err != nil {
		return nil, err
	}
	cur, err := s.openSpaceRead(ctx, to.Ref, to.At)
	if err != nil {
		return nil, err
	}
	changes, err := pageChanges(ctx, old, cur)
	if err != nil {
		return nil, err
	}
	d := &ContentDiff{From: old.Content, To: cur.Content, Pages: make([]PageDiff, 0, len(changes))}
	for _, ch := range changes {
		pd := PageDiff{ChangedPage: ch.ChangedPage}
		if pd.Old, err = s.pageSide(ctx, old, ch.old); err != nil {
			return nil, err
		}
		if pd.New, err = s.pageSide(ctx, cur, ch.new); err != nil {
			return nil, err
		}
		var oldDoc, newDoc *document.Document
		if pd.Old != nil {
			oldDoc = pd.Old.Document
		}
		if pd.New != nil {
			newDoc = pd.New.Document
		}
		pd.Blocks = DiffBlocks(oldDoc, newDoc)
		d.Pages = append(d.Pages, pd)
	}
	return d, nil
}

// pageSide reads one side of a changed page; nil when the side lacks it
// (or it is a group or link, which has no document).
func (s *Service) pageSide(ctx context.Context, x *SpaceRead, p *pageAt) (*PageSide, error) {
	if p == nil {
		return nil, nil
	}
	side := &PageSide{Page: p.page, Path: p.path}
	if isDocumentPage(p.page) {
		doc, err := s.pageDocument(ctx, x.Content, p.page)
		if err != nil {
			return nil, err
		}
		side.Document = doc
	}
	read := *x
	read.Page, read.Path, read.Document = p.page, p.path, side.Document
	side.Read = &read
	return side, nil
}

// pageAt is a page with its path in one revision.
type pageAt struct {
	page *quire.RevisionPage
	path string
}

// pageChange is a changed page with each side's page, nil where the
// side lacks it.
type pageChange struct {
	ChangedPage
	old, new *pageAt
}

// pageChanges lists the pages that differ between two revisions, in
// path order: only the pages whose objects differ are looked at, and a
// page whose object changed only because pages were added, removed or
// moved below it is left out.
func pageChanges(ctx context.Context, from, to *SpaceRead) ([]pageChange, error) {
	ids, err := to.ChangedPages(ctx, from.Rev)
	if err != nil {
		return nil, err
	}
	out := make([]pageChange, 0, len(ids))
	for _, id := range ids {
		ch := pageChange{ChangedPage: ChangedPage{ID: id}}
		if n := from.tree.Node(id); n != nil {
			ch.old = &pageAt{page: n.Page, path: n.Path}
		}
		if n := to.tree.Node(id); n != nil {
			ch.new = &pageAt{page: n.Page, path: n.Path}
		}
		switch {
		case ch.old == nil && ch.new == nil:
			continue
		case ch.old == nil:
			ch.Change, ch.Title, ch.Path = PageAdded, ch.new.page.Title, ch.new.path
			ch.DocumentChanged = true
		case ch.new == nil:
			ch.Change, ch.Title, ch.Path = PageRemoved, ch.old.page.Title, ch.old.path
			ch.DocumentChanged = true
		default:
			o, n := ch.old.page, ch.new.page
			ch.Change, ch.Title, ch.Path = PageEdited, n.Title, ch.new.path
			ch.OldTitle, ch.OldPath = o.Title, ch.old.path
			ch.Moved = o.Parent != n.Parent || o.Position != n.Position
			ch.Renamed = o.Title != n.Title || o.Slug != n.Slug
			ch.DocumentChanged = o.Document != n.Document
			if !ownChange(o, n) {
				continue
			}
		}
		out = append(out, ch)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// ownChange reports whether a page's own object differs between two
// revisions, beyond the root of its children map (which pages below it
// change) and its time of update.
func ownChange(a, b *quire.RevisionPage) bool {
	x, y := *a, *b
	x.Children, y.Children = "", ""
	x.UpdatedAt, y.UpdatedAt = time.Time{}, time.Time{}
	return !reflect.DeepEqual(x, y)
}
