package service

import (
	"context"

	"quire/internal/quire"
)

// restoreDate is how a restore's subject writes the revision's time.
const restoreDate = "2 Jan 2006, 15:04 UTC"

// spaceRevision reads a revision of a space; one the space does not have
// is EINVALID on field.
func (s *Service) spaceRevision(ctx context.Context, spaceID, revID, field string) (*quire.Revision, error) {
	if revID == "" {
		return nil, quire.Invalid(field, "give a revision")
	}
	rev, err := s.store.Revision(ctx, spaceID, revID)
	if quire.IsNotFound(err) {
		return nil, quire.Invalid(field, "revision %q does not exist in this space", revID)
	}
	return rev, err
}

// RestorePageRevision proposes to restore a page to its content at an
// earlier revision: a new change request, "Restore <page> to <date>",
// holding the page's title, icon, description and document as they were
// then (the revert_page change). The page must exist now and then.
func (s *Service) RestorePageRevision(ctx context.Context, u *quire.User, spaceID, pageID, revID string) (*quire.ChangeRequest, error) {
	rev, err := s.spaceRevision(ctx, spaceID, revID, "revision")
	if err != nil {
		return nil, err
	}
	then, err := s.engine.Snapshot(s.store, rev).Page(ctx, pageID)
	if quire.IsNotFound(err) {
		return nil, quire.Invalid("page", "page %q is not in revision %s", pageID, revID)
	} else if err != nil {
		return nil, err
	}
	sp, err := s.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	cur, err := s.store.Revision(ctx, spaceID, sp.Revision)
	if err != nil {
		return nil, err
	}
	if _, err := s.engine.Snapshot(s.store, cur).Page(ctx, pageID); quire.IsNotFound(err) {
		return nil, quire.Invalid("page", "page %q is no longer in the space", pageID)
	} else if err != nil {
		return nil, err
	}
	cr, err := s.CreateChangeRequest(ctx, u, spaceID, "Restore "+then.Title+" to "+rev.CreatedAt.UTC().Format(restoreDate))
	if err != nil {
		return nil, err
	}
	out, _, err := s.UpdateChangeRequestContent(ctx, u, spaceID, cr.ID, []ContentChange{{Operation: OpRevertPage, Page: pageID, Revision: rev.ID}})
	if err != nil {
		return nil, err
	}
	if out == nil {
		return cr, nil
	}
	return out, nil
}

// RestoreSpaceRevision proposes to restore a whole space to an earlier
// revision: a new change request, "Restore <space> to <date>", whose
// content is that revision's pages, tree and files, written as one
// revision of the change request. A revision with the content main has
// now is EINVALID: there is nothing to restore.
func (s *Service) RestoreSpaceRevision(ctx context.Context, u *quire.User, spaceID, revID string) (*quire.ChangeRequest, error) {
	rev, err := s.spaceRevision(ctx, spaceID, revID, "revision")
	if err != nil {
		return nil, err
	}
	sp, err := s.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	cur, err := s.store.Revision(ctx, spaceID, sp.Revision)
	if err != nil {
		return nil, err
	}
	if cur.Pages == rev.Pages && cur.Slugs == rev.Slugs && cur.Files == rev.Files {
		return nil, quire.Invalid("revision", "the space's content is already as it was at this revision")
	}
	cr, err := s.CreateChangeRequest(ctx, u, spaceID, "Restore "+sp.Title+" to "+rev.CreatedAt.UTC().Format(restoreDate))
	if err != nil {
		return nil, err
	}
	// The new change request is on main's revision (cur) unless main moved
	// meanwhile; its content becomes rev's either way.
	base, err := s.store.Revision(ctx, spaceID, cr.Revision)
	if err != nil {
		return nil, err
	}
	ed := s.engine.Edit(s.store, base)
	ed.Restore(rev)
	if !ed.Changed(base) {
		return cr, nil
	}
	return s.commitToChangeRequest(ctx, u, spaceID, cr.ID, ed, base)
}
