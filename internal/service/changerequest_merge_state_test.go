package service

import (
	"testing"

	"quire/internal/quire"
)

// TestMergeState checks that the merge state a page shows is what a merge
// then does: refused under a rule needing someone's approval until they
// approve, allowed after, and named with its rules and approvers.
func TestMergeState(t *testing.T) {
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		cr := f.changeRequest(t, "Add a page", newPage("Intro", "Hello."))
		st, err := f.svc.MergeState(ctx, f.u, f.space, cr)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Check.Allowed() || len(st.Rules) != 0 || len(st.Approvers) != 0 {
			t.Fatalf("without rules: %+v", st)
		}

		sp, err := f.st.Space(ctx, f.space)
		if err != nil {
			t.Fatal(err)
		}
		rev, _, err := f.svc.CreateUser(ctx, CreateUserInput{Email: "r@example.com", Name: "R", OrgID: sp.OrgID, Role: quire.RoleReview})
		if err != nil {
			t.Fatal(err)
		}
		rules := quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{
			{Rule: quire.RuleSpecificReviewers, Users: []string{rev.ID}}}}
		if _, err := f.svc.UpdateSpace(ctx, f.u, f.space, quire.SpaceUpdate{MergeRules: &rules}); err != nil {
			t.Fatal(err)
		}
		st, err = f.svc.MergeState(ctx, f.u, f.space, cr)
		if err != nil {
			t.Fatal(err)
		}
		if st.Check.Allowed() || len(st.Check.Failures) != 1 || st.Check.Failures[0].Rule != quire.RuleSpecificReviewers {
			t.Fatalf("before approval: %+v", st.Check)
		}
		if len(st.Rules) != 1 || st.Rules[0].Users[0] != rev.ID || len(st.Approvers) != 0 {
			t.Fatalf("before approval: rules %+v approvers %v", st.Rules, st.Approvers)
		}
		if _, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, cr); quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("merge before approval: %v, want the rules' refusal", err)
		}

		if _, err := f.svc.SubmitReview(ctx, Commenter{User: rev, Level: quire.LevelReview}, f.space, cr,
			ReviewInput{Status: quire.ReviewApproved}); err != nil {
			t.Fatal(err)
		}
		st, err = f.svc.MergeState(ctx, f.u, f.space, cr)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Check.Allowed() || !st.Approvers[rev.ID] {
			t.Fatalf("after approval: %+v", st)
		}
		if out, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, cr); err != nil || out.Result != ResultMerge {
			t.Fatalf("merge after approval: %+v %v", out, err)
		}

		if _, err := f.svc.MergeState(ctx, f.u, f.space, "999"); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Fatalf("unknown change request: %v", err)
		}
		if _, err := f.svc.MergeState(ctx, f.u, "nosuchspace", cr); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Fatalf("unknown space: %v", err)
		}
	})
}
