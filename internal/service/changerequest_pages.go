package service

import (
	"context"
)

// Kinds of change of a page in a change request.
const (
	PageAdded   = "added"
	PageEdited  = "edited"
	PageRemoved = "removed"
)

// ChangedPage is a page a change request (or a later revision) adds,
// edits or removes, with its title and path in the newer content (in the
// older one for a removed page).
type ChangedPage struct {
	ID, Title, Path string
	// Change is PageAdded, PageEdited or PageRemoved.
	Change string
	// For an edited page: its title and path in the older content,
	// whether it moved (another parent or place among its siblings),
	// was renamed (another title or slug), and whether its document
	// changed. Added and removed pages have DocumentChanged set.
	OldTitle, OldPath string
	Moved, Renamed    bool
	DocumentChanged   bool
}

// ChangeRequestPages lists the pages a change request changes against
// the space revision it is based on, in path order.
func (s *Service) ChangeRequestPages(ctx context.Context, spaceID, idOrNumber string) ([]ChangedPage, error) {
	cr, err := s.ChangeRequest(ctx, spaceID, idOrNumber)
	if err != nil {
		return nil, err
	}
	var at SpaceAddresses
	base, err := s.openSpaceRead(ctx, ContentRef{SpaceID: spaceID, Revision: cr.Base()}, at)
	if err != nil {
		return nil, err
	}
	cur, err := s.openSpaceRead(ctx, ContentRef{SpaceID: spaceID, ChangeRequest: cr.ID}, at)
	if err != nil {
		return nil, err
	}
	changes, err := pageChanges(ctx, base, cur)
	if err != nil {
		return nil, err
	}
	out := make([]ChangedPage, len(changes))
	for i, ch := range changes {
		out[i] = ch.ChangedPage
	}
	return out, nil
}
