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
	// Bypassed names the merge rules a merge went past by a bypass.
	Bypassed []quire.MergeRuleKind
	// author is the merged change request's author, to be told of it.
	author string
}

// MergeChangeRequest merges a change request into its space's main
// content: a new main revision of type merge whose parents are main's
// revision and the change request's. A real conflict changes nothing.
// Merges and updates of one space run one at a time under the space's
// lock, each against the main revision the one before left, so merges
// that do not conflict all succeed; those queued in this process together
// share one transaction and its commit (see writeQueues), after which the
// content events of the batch's merges are announced with one job.
func (s *Service) MergeChangeRequest(ctx context.Context, u *quire.User, spaceID, crID string) (*MergeOutcome, error) {
	out, err := inSpaceLock(ctx, s, spaceID, crID, func(ctx context.Context, st quire.Store) (*MergeOutcome, error) {
		return s.mergeOnce(ctx, st, u, spaceID, crID, true)
	}, func(out *MergeOutcome) bool { return out.Result == ResultMerge })
	if err == nil && len(out.Bypassed) > 0 {
		s.log.InfoContext(ctx, "merge rules bypassed", "space", spaceID, "change_request", crID, "user", u.ID,
			"rules", out.Bypassed)
	}
	if err == nil && out.Result == ResultMerge {
		s.notifyMerged(ctx, u, spaceID, crID, out.author)
	}
	return out, err
}

// mergeOnce is one attempt, on a transaction holding the space's lock
// (in a savepoint of it, beside the other merges of its batch). The
// change request is marked merged only if it is still on the revision
// that was merged and still open or draft, so a write that lands first
// makes the attempt run again with it, and a write that comes after finds
// the change request merged; a quire.Stale ECONFLICT otherwise. Without
// rules, the space's merge rules are not asked: a live edit's own change
// request (WriteLive) is merged as it is written.
func (s *Service) mergeOnce(ctx context.Context, st quire.Store, u *quire.User, spaceID, crID string, rules bool) (*MergeOutcome, error) {
	cr, sp, err := writableChangeRequest(ctx, st, spaceID, crID)
	if err != nil {
		return nil, err
	}
	// The merge rules are read and evaluated here, in the batch's
	// transaction under the space's lock, before anything is written: a
	// refusal is this merge's own answer and leaves nothing behind.
	var check MergeCheck
	if rules {
		if check, err = s.checkMerge(ctx, st, u, sp, cr); err != nil {
			return nil, err
		}
	}
	if !check.Allowed() {
		return nil, check.refusal()
	}
	next, conflicts, err := s.commitThreeWay(ctx, st, u, threeWay{space: sp.ID, typ: quire.RevisionMerge,
		base: cr.Base(), ours: sp.Revision, theirs: cr.Revision, mergedFrom: cr.ID})
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return &MergeOutcome{Result: ResultConflicts, Revision: sp.Revision, Conflicts: conflicts}, nil
	}
	if check.Bypassed() {
		// Recorded before the compare-and-swap, so that a lost swap
		// undoes it with the rest of the attempt.
		if err := st.RecordMergeBypass(ctx, &quire.MergeBypass{ChangeRequestID: cr.ID, SpaceID: sp.ID, UserID: u.ID,
			Revision: next.ID, Rules: check.FailedRules()}); err != nil {
			return nil, err
		}
	}
	// One compare-and-swap over the change request (still on the revision
	// merged, still in the status read above) and the space (still on
	// ours): a write that lands first makes the attempt stale. The move's
	// content event is recorded with it.
	if err := st.MarkMerged(ctx, quire.MergeMark{SpaceID: sp.ID, ChangeRequestID: cr.ID, Revision: cr.Revision,
		From: cr.Status, Prev: sp.Revision, Next: next.ID}); err != nil {
		return nil, err
	}
	out := &MergeOutcome{Result: ResultMerge, Revision: next.ID, author: cr.CreatedBy}
	if check.Bypassed() {
		out.Bypassed = check.FailedRules()
	}
	return out, nil
}

// UpdateChangeRequestFromMain pulls main content that moved since the change
// request's base into it, as a new revision of type update. When main has
// not moved, nothing changes. It runs under the space's lock like a merge.
func (s *Service) UpdateChangeRequestFromMain(ctx context.Context, u *quire.User, spaceID, crID string) (*MergeOutcome, error) {
	return inSpaceLock(ctx, s, spaceID, crID, func(ctx context.Context, st quire.Store) (*MergeOutcome, error) {
		return s.updateOnce(ctx, st, u, spaceID, crID)
	}, nil)
}

// updateOnce is one attempt, on a transaction holding the space's lock; a
// quire.Stale ECONFLICT when the change request moved or stopped being
// open or draft meanwhile.
func (s *Service) updateOnce(ctx context.Context, st quire.Store, u *quire.User, spaceID, crID string) (*MergeOutcome, error) {
	cr, sp, err := writableChangeRequest(ctx, st, spaceID, crID)
	if err != nil {
		return nil, err
	}
	if sp.Revision == cr.Base() {
		return &MergeOutcome{Result: ResultUpdate, Revision: cr.Revision}, nil
	}
	next, conflicts, err := s.commitThreeWay(ctx, st, u, threeWay{space: sp.ID, typ: quire.RevisionUpdate,
		base: cr.Base(), ours: cr.Revision, theirs: sp.Revision})
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return &MergeOutcome{Result: ResultConflicts, Revision: cr.Revision, Conflicts: conflicts}, nil
	}
	_, err = st.UpdateChangeRequest(ctx, sp.ID, cr.ID, quire.ChangeRequestUpdate{
		Revision: &next.ID, RevisionMergedAncestor: &sp.Revision, IfRevision: &cr.Revision, IfStatus: quire.WritableStatuses()})
	if err != nil {
		return nil, err
	}
	return &MergeOutcome{Result: ResultUpdate, Revision: next.ID}, nil
}

// threeWay names the revisions of a three-way merge and the revision it
// makes.
type threeWay struct {
	space              string
	typ                string
	base, ours, theirs string
	// mergedFrom is the change request a merge revision comes from.
	mergedFrom string
	// res settles conflicts, by content.Conflict.ID.
	res map[string]content.Resolution
}

// commitThreeWay merges theirs into ours over base and commits the
// result as a new revision of type w.typ whose parents are ours and
// theirs. Conflicts write nothing and are returned instead.
func (s *Service) commitThreeWay(ctx context.Context, st quire.Store, u *quire.User, w threeWay) (*quire.Revision, []content.Conflict, error) {
	base, err := st.Revision(ctx, w.space, w.base)
	if err != nil {
		return nil, nil, err
	}
	ours, err := st.Revision(ctx, w.space, w.ours)
	if err != nil {
		return nil, nil, err
	}
	theirs, err := st.Revision(ctx, w.space, w.theirs)
	if err != nil {
		return nil, nil, err
	}
	ed, conflicts, err := s.engine.MergeResolved(ctx, st, base, ours, theirs, w.res)
	if err != nil || len(conflicts) > 0 {
		return nil, conflicts, err
	}
	next := ed.Revision(quire.NewID(), w.space, w.typ, u.ID, ours.ID, theirs.ID)
	next.MergedFrom = w.mergedFrom
	if err := ed.Commit(ctx, st, next); err != nil {
		return nil, nil, err
	}
	return next, nil, nil
}
