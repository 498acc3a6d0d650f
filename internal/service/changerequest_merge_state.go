package service

import (
	"context"

	"quire/internal/quire"
)

// MergeState is what the merge rules say of a merge of a change request
// by a user now, with what a page needs to say it in words: the rules
// that govern the space's merges and who approves the change request at
// its current revision.
type MergeState struct {
	Check MergeCheck
	// Rules are the space's effective merge rules; none when merges need
	// nothing.
	Rules []quire.MergeRule
	// Approvers are the users whose current review approves.
	Approvers map[string]bool
}

// MergeState evaluates the merge rules of a change request for a merge
// by u, as a merge would (checkMerge), without merging: a page shows it
// before offering the merge. It reads only. The change request's status
// is not judged here: a merged or archived one cannot merge whatever the
// rules say.
func (s *Service) MergeState(ctx context.Context, u *quire.User, spaceID, idOrNumber string) (*MergeState, error) {
	sp, err := s.store.Space(ctx, spaceID)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("space")
	} else if err != nil {
		return nil, err
	}
	cr, err := s.ChangeRequest(ctx, sp.ID, idOrNumber)
	if err != nil {
		return nil, err
	}
	check, err := s.checkMerge(ctx, s.store, u, sp, cr)
	if err != nil {
		return nil, err
	}
	out := &MergeState{Check: check, Approvers: map[string]bool{}}
	rules, err := effectiveMergeRules(ctx, s.store, sp)
	if err != nil {
		return nil, err
	}
	if rules.Type == quire.MergeRulesRules {
		out.Rules = rules.Rules
	}
	reviews, err := s.store.CurrentReviews(ctx, cr.ID, cr.Revision)
	if err != nil {
		return nil, err
	}
	for _, r := range reviews {
		if r.Status == quire.ReviewApproved {
			out.Approvers[r.Reviewer] = true
		}
	}
	return out, nil
}
