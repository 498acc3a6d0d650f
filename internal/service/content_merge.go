package service

import (
	"context"

	"quire/internal/content"
	"quire/internal/quire"
)

// Merge and update results.
const (
	ResultMerge     = "merge"
	ResultUpdate    = "update"
	ResultConflicts = "conflicts"
)

// MergeOutcome is the result of merging or updating a change request:
// the revision produced (or the current one when nothing changed), or the
// conflicts that stopped it.
type MergeOutcome struct {
	Result    string
	Revision  string
	Conflicts []content.Conflict
}

// MergeChangeRequest merges a change request into its space's main
// content: a new main revision of type merge whose parents are main's
// revision and the change request's. A real conflict changes nothing.
func (s *Service) MergeChangeRequest(ctx context.Context, u *quire.User, spaceID, crID string) (*MergeOutcome, error) {
	return retryConflicts(func() (*MergeOutcome, error) { return s.mergeOnce(ctx, u, spaceID, crID) })
}

// mergeOnce is one attempt; ECONFLICT when main moved meanwhile.
func (s *Service) mergeOnce(ctx context.Context, u *quire.User, spaceID, crID string) (*MergeOutcome, error) {
	cr, sp, err := s.writableChangeRequest(ctx, spaceID, crID)
	if err != nil {
		return nil, err
	}
	base, ours, theirs, err := s.threeRevisions(ctx, sp.ID, cr.Base(), sp.Revision, cr.Revision)
	if err != nil {
		return nil, err
	}
	ed, conflicts, err := s.engine.Merge(ctx, s.store, base, ours, theirs)
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return &MergeOutcome{Result: ResultConflicts, Revision: sp.Revision, Conflicts: conflicts}, nil
	}
	next := ed.Revision(quire.NewID(), sp.ID, quire.RevisionMerge, u.ID, ours.ID, theirs.ID)
	next.MergedFrom = cr.ID
	if err := ed.Commit(ctx, s.store, next); err != nil {
		return nil, err
	}
	err = s.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.AdvanceSpaceRevision(ctx, sp.ID, ours.ID, next.ID); err != nil {
			return err
		}
		merged, prev := quire.CRMerged, cr.Revision
		_, err := st.UpdateChangeRequest(ctx, sp.ID, cr.ID, quire.ChangeRequestUpdate{
			Status: &merged, RevisionMerged: &next.ID, IfRevision: &prev})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &MergeOutcome{Result: ResultMerge, Revision: next.ID}, nil
}

// UpdateChangeRequestFromMain pulls main content that moved since the change
// request's base into it, as a new revision of type update. When main has
// not moved, nothing changes.
func (s *Service) UpdateChangeRequestFromMain(ctx context.Context, u *quire.User, spaceID, crID string) (*MergeOutcome, error) {
	return retryConflicts(func() (*MergeOutcome, error) { return s.updateOnce(ctx, u, spaceID, crID) })
}

// updateOnce is one attempt; ECONFLICT when the change request moved
// meanwhile.
func (s *Service) updateOnce(ctx context.Context, u *quire.User, spaceID, crID string) (*MergeOutcome, error) {
	cr, sp, err := s.writableChangeRequest(ctx, spaceID, crID)
	if err != nil {
		return nil, err
	}
	if sp.Revision == cr.Base() {
		return &MergeOutcome{Result: ResultUpdate, Revision: cr.Revision}, nil
	}
	base, ours, theirs, err := s.threeRevisions(ctx, sp.ID, cr.Base(), cr.Revision, sp.Revision)
	if err != nil {
		return nil, err
	}
	ed, conflicts, err := s.engine.Merge(ctx, s.store, base, ours, theirs)
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return &MergeOutcome{Result: ResultConflicts, Revision: cr.Revision, Conflicts: conflicts}, nil
	}
	next := ed.Revision(quire.NewID(), sp.ID, quire.RevisionUpdate, u.ID, ours.ID, theirs.ID)
	if err := ed.Commit(ctx, s.store, next); err != nil {
		return nil, err
	}
	main, prev := theirs.ID, cr.Revision
	_, err = s.store.UpdateChangeRequest(ctx, sp.ID, cr.ID, quire.ChangeRequestUpdate{
		Revision: &next.ID, RevisionMergedAncestor: &main, IfRevision: &prev})
	if err != nil {
		return nil, err
	}
	return &MergeOutcome{Result: ResultUpdate, Revision: next.ID}, nil
}

// threeRevisions loads the base, ours and theirs revisions of a merge.
func (s *Service) threeRevisions(ctx context.Context, spaceID, base, ours, theirs string) (b, o, t *quire.Revision, err error) {
	if b, err = s.store.Revision(ctx, spaceID, base); err != nil {
		return
	}
	if o, err = s.store.Revision(ctx, spaceID, ours); err != nil {
		return
	}
	t, err = s.store.Revision(ctx, spaceID, theirs)
	return
}
