package service

import (
	"context"
	"sort"

	"quire/internal/quire"
)

// Kinds of change of a page in a change request.
const (
	PageAdded   = "added"
	PageEdited  = "edited"
	PageRemoved = "removed"
)

// ChangedPage is a page a change request adds, edits or removes, with
// its title and path in the change request (in the space's base revision
// for a removed page).
type ChangedPage struct {
	ID, Title, Path string
	// Change is PageAdded, PageEdited or PageRemoved.
	Change string
}

// ChangeRequestPages lists the pages a change request changes against
// the space revision it is based on, in path order.
func (s *Service) ChangeRequestPages(ctx context.Context, spaceID, idOrNumber string) ([]ChangedPage, error) {
	c, err := s.Content(ctx, ContentRef{SpaceID: spaceID, ChangeRequest: idOrNumber})
	if err != nil {
		return nil, err
	}
	base, err := s.store.Revision(ctx, spaceID, c.ChangeRequest.Base())
	if err != nil {
		return nil, err
	}
	ids, err := c.ChangedPages(ctx, base)
	if err != nil {
		return nil, err
	}
	baseSnap := s.engine.Snapshot(s.store, base)
	out := make([]ChangedPage, 0, len(ids))
	for _, id := range ids {
		cp := ChangedPage{ID: id, Change: PageEdited}
		p, err := c.Page(ctx, id)
		snap := c.Snapshot
		if quire.IsNotFound(err) {
			cp.Change, snap = PageRemoved, baseSnap
			p, err = baseSnap.Page(ctx, id)
		} else if err == nil {
			if _, err := baseSnap.Page(ctx, id); quire.IsNotFound(err) {
				cp.Change = PageAdded
			} else if err != nil {
				return nil, err
			}
		}
		if err != nil {
			return nil, err
		}
		cp.Title = p.Title
		if cp.Path, err = snap.Path(ctx, p); err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
