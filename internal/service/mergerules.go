package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"quire/internal/quire"
)

// RuleFailure is a merge rule that a change request does not meet, and
// why.
type RuleFailure struct {
	Rule   quire.MergeRuleKind
	Reason string
}

// MergeCheck is what the merge rules say of a merge by a user now: the
// rules that fail, and whether the user may bypass them.
type MergeCheck struct {
	Failures []RuleFailure
	// CanBypass is set when an allow_bypass rule lists the user.
	CanBypass bool
}

// Allowed reports whether the merge may go ahead: no rule fails, or the
// user may bypass them.
func (c MergeCheck) Allowed() bool { return len(c.Failures) == 0 || c.CanBypass }

// Bypassed reports whether the merge goes ahead only by a bypass.
func (c MergeCheck) Bypassed() bool { return len(c.Failures) > 0 && c.CanBypass }

// FailedRules names the rules that fail.
func (c MergeCheck) FailedRules() []quire.MergeRuleKind {
	out := make([]quire.MergeRuleKind, len(c.Failures))
	for i, f := range c.Failures {
		out[i] = f.Rule
	}
	return out
}

// refusal is the error of a merge the rules refuse, naming each failing
// rule.
func (c MergeCheck) refusal() error {
	parts := make([]string, len(c.Failures))
	for i, f := range c.Failures {
		parts[i] = fmt.Sprintf("%s (%s)", f.Rule, f.Reason)
	}
	return quire.Errorf(quire.EINVALID, "the merge rules refuse this merge: %s", strings.Join(parts, "; "))
}

// mergeFacts is what the merge rules look at: the space, the change
// request, the user merging, and, read once when a rule first needs
// them, the change request's current reviews and its requested reviewers.
type mergeFacts struct {
	ctx       context.Context
	st        quire.Store
	space     *quire.Space
	cr        *quire.ChangeRequest
	actor     *quire.User
	reviews   []*quire.Review
	requested []*quire.RequestedReviewer
	loaded    struct{ reviews, requested bool }
}

// currentReviews returns the reviews not outdated: each reviewer's latest,
// made against the change request's current revision.
func (f *mergeFacts) currentReviews() ([]*quire.Review, error) {
	if !f.loaded.reviews {
		rs, err := f.st.CurrentReviews(f.ctx, f.cr.ID, f.cr.Revision)
		if err != nil {
			return nil, err
		}
		f.reviews, f.loaded.reviews = rs, true
	}
	return f.reviews, nil
}

// requestedReviewers returns the users asked to review who have not yet.
func (f *mergeFacts) requestedReviewers() ([]*quire.RequestedReviewer, error) {
	if !f.loaded.requested {
		rs, err := f.st.AllRequestedReviewers(f.ctx, f.cr.ID)
		if err != nil {
			return nil, err
		}
		f.requested, f.loaded.requested = rs, true
	}
	return f.requested, nil
}

// approvers returns the users whose current review approves.
func (f *mergeFacts) approvers() (map[string]bool, error) {
	rs, err := f.currentReviews()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range rs {
		if r.Status == quire.ReviewApproved {
			out[r.Reviewer] = true
		}
	}
	return out, nil
}

// effectiveMergeRules returns the rules that govern a space's merges: its
// own, or for inherit those of its organization (collections carry no
// merge rules of their own, so inherit passes through them), which the
// space may have been read with.
func effectiveMergeRules(ctx context.Context, st quire.Store, sp *quire.Space) (quire.MergeRules, error) {
	if sp.MergeRules.Type != quire.MergeRulesInherit {
		return sp.MergeRules, nil
	}
	if sp.OrgMergeRules != nil {
		return *sp.OrgMergeRules, nil
	}
	org, err := st.Organization(ctx, sp.OrgID)
	if err != nil {
		return quire.MergeRules{}, err
	}
	return org.MergeRules, nil
}

// checkMerge evaluates the merge rules of a change request's space for a
// merge by actor, now. It is the one evaluation of the rules: merges call
// it under the space's lock, before they write anything. It only reads.
func (s *Service) checkMerge(ctx context.Context, st quire.Store, actor *quire.User, sp *quire.Space, cr *quire.ChangeRequest) (MergeCheck, error) {
	rules, err := effectiveMergeRules(ctx, st, sp)
	if err != nil || rules.Type != quire.MergeRulesRules {
		return MergeCheck{}, err
	}
	f := &mergeFacts{ctx: ctx, st: st, space: sp, cr: cr, actor: actor}
	var out MergeCheck
	for _, r := range rules.Rules {
		if r.Rule == quire.RuleAllowBypass {
			out.CanBypass = out.CanBypass || slices.Contains(r.Users, actor.ID)
			continue
		}
		reason, err := s.evalRule(f, r)
		if err != nil {
			return MergeCheck{}, err
		}
		if reason != "" {
			out.Failures = append(out.Failures, RuleFailure{Rule: r.Rule, Reason: reason})
		}
	}
	return out, nil
}

// evalRule evaluates one rule: "" when it is met, else why not.
func (s *Service) evalRule(f *mergeFacts, r quire.MergeRule) (string, error) {
	switch r.Rule {
	case quire.RuleSpecificReviewers:
		ok, err := f.approvers()
		if err != nil {
			return "", err
		}
		var missing []string
		for _, id := range r.Users {
			// The author cannot review their own change request, so the
			// rule asks the others.
			if id != f.cr.CreatedBy && !ok[id] {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			return "no approval at the current revision from " + strings.Join(missing, ", "), nil
		}
	case quire.RuleOneOfSpecificReviewers:
		ok, err := f.approvers()
		if err != nil {
			return "", err
		}
		if !slices.ContainsFunc(r.Users, func(id string) bool { return ok[id] }) {
			return "no approval at the current revision from any of " + strings.Join(r.Users, ", "), nil
		}
	case quire.RuleAtLeastOneReview:
		ok, err := f.approvers()
		if err != nil {
			return "", err
		}
		if len(ok) == 0 {
			return "no approving review at the current revision", nil
		}
	case quire.RuleAllReviewsApproved:
		rs, err := f.currentReviews()
		if err != nil {
			return "", err
		}
		for _, rv := range rs {
			if rv.Status != quire.ReviewApproved {
				return "a review at the current revision requests changes", nil
			}
		}
		pending, err := f.requestedReviewers()
		if err != nil {
			return "", err
		}
		if len(pending) > 0 {
			return "requested reviewers have not reviewed yet", nil
		}
	case quire.RuleAgentReview:
		// Reviews here are made by users: no agent reviews on this
		// server, so the rule holds only through a bypass.
		return "no agent review: this server runs no review agent", nil
	case quire.RuleUpToDate:
		if Outdated(f.cr, f.space) {
			return "main content moved since the change request was last updated", nil
		}
	case quire.RuleSubject:
		if strings.TrimSpace(f.cr.Subject) == "" {
			return "the change request has no subject", nil
		}
	case quire.RuleDescription:
		if !hasDescription(f.cr.Description) {
			return "the change request has no description", nil
		}
	case quire.RuleCustom:
		ok, reason, err := s.evalCustomRule(f, r.Expression)
		if err != nil || !ok {
			return reason, err
		}
	default:
		return "unknown rule", nil
	}
	return "", nil
}

// hasDescription reports whether a description document holds any block.
func hasDescription(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var doc struct {
		Nodes []json.RawMessage `json:"nodes"`
	}
	return json.Unmarshal(raw, &doc) == nil && len(doc.Nodes) > 0
}
