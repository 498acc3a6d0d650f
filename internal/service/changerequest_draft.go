package service

import (
	"context"

	"quire/internal/quire"
)

// DraftChangeRequest returns the change request u is writing in a space:
// their newest draft there, or a new draft when they have none. It is
// where "Edit" takes a person, as a hosted docs platform does: one
// draft per person, continued until they open it for review.
func (s *Service) DraftChangeRequest(ctx context.Context, u *quire.User, spaceID string) (*quire.ChangeRequest, error) {
	l, err := s.store.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: spaceID, Status: quire.CRDraft, Creator: u.ID},
		quire.Page{Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(l.Items) > 0 {
		return l.Items[0], nil
	}
	return s.CreateChangeRequest(ctx, u, spaceID, "")
}

// WriteLive applies a batch of changes to the main content of a space
// whose edit mode is live: a change request made for the batch, written
// and merged at once, so that every live save is a merged change with
// its author in the space's history. The space's merge rules govern
// review and do not stop a live save. When another save changed the same
// blocks first, nothing is merged: the change request is archived and
// the answer is an ECONFLICT naming the conflicts' pages.
func (s *Service) WriteLive(ctx context.Context, u *quire.User, spaceID, subject string, changes []ContentChange) (*MergeOutcome, []ChangeResult, error) {
	sp, err := s.store.Space(ctx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	if sp.EditMode != quire.EditModeLive {
		return nil, nil, quire.Errorf(quire.EINVALID, "the space's content is changed through change requests, not live")
	}
	cr, err := s.CreateChangeRequest(ctx, u, spaceID, subject)
	if err != nil {
		return nil, nil, err
	}
	_, results, err := s.UpdateChangeRequestContent(ctx, u, spaceID, cr.ID, changes)
	if err == nil {
		var out *MergeOutcome
		out, err = inSpaceLock(ctx, s, spaceID, cr.ID, func(ctx context.Context, st quire.Store) (*MergeOutcome, error) {
			return s.mergeOnce(ctx, st, u, spaceID, cr.ID, false)
		}, func(out *MergeOutcome) bool { return out.Result == ResultMerge })
		if err == nil && out.Result == ResultMerge {
			return out, results, nil
		}
		if err == nil {
			err = quire.Errorf(quire.ECONFLICT, "someone changed the same content first: reload and edit again")
		}
	}
	archived := quire.CRArchived
	if _, aerr := s.store.UpdateChangeRequest(ctx, spaceID, cr.ID, quire.ChangeRequestUpdate{Status: &archived,
		IfStatus: quire.WritableStatuses()}); aerr != nil {
		s.log.WarnContext(ctx, "a failed live save left its change request open", "space", spaceID, "change_request", cr.ID, "err", aerr)
	}
	return nil, nil, err
}
