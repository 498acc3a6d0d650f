package storetest

import (
	"testing"

	"quire/internal/quire"
)

func reviewID(r *quire.Review) string { return r.ID }

// review stores a review of a change request by a user, at its revision.
func (f *fixture) review(cr *quire.ChangeRequest, u *quire.User, status quire.ReviewStatus) *quire.Review {
	f.t.Helper()
	now := f.tick()
	r := &quire.Review{ID: quire.NewID(), SpaceID: cr.SpaceID, ChangeRequestID: cr.ID, Revision: cr.Revision,
		Reviewer: u.ID, Status: status, CreatedAt: now, UpdatedAt: now}
	must(f.t, f.st.CreateReview(ctx(f.t), r))
	return r
}

func reviewTests() []test {
	return []test{
		{"reviews/create, supersede, list and filter", func(t *testing.T, f *fixture) {
			o := f.org("A")
			author, ann, bob := f.user("Ada", "ada@x.io"), f.user("Ann", "ann@x.io"), f.user("Bob", "bob@x.io")
			sp := f.space(o, "", "a")
			cr := f.changeRequest(sp, author, quire.CROpen)
			other := f.changeRequest(sp, author, quire.CROpen)

			// A request to review is replaced when made again, and a review
			// fulfils it.
			req := func(u *quire.User, rev string) *quire.RequestedReviewer {
				return &quire.RequestedReviewer{ChangeRequestID: cr.ID, UserID: u.ID, Revision: rev, RequestedBy: author.ID, CreatedAt: f.tick()}
			}
			must(t, f.st.RequestReviewers(ctx(t), []*quire.RequestedReviewer{req(ann, "r0"), req(bob, "r0")}))
			again := req(ann, "r1")
			must(t, f.st.RequestReviewers(ctx(t), []*quire.RequestedReviewer{again}))
			all, err := f.st.AllRequestedReviewers(ctx(t), cr.ID)
			must(t, err)
			equal(t, "requests", len(all), 2)
			equal(t, "renewed request", *all[1], *again)
			items, count := collect(t, 1, func(p quire.Page) (*quire.List[*quire.RequestedReviewer], error) {
				return f.st.RequestedReviewers(ctx(t), cr.ID, p)
			})
			equal(t, "request count", count, 2)
			equal(t, "requested users", []string{items[0].UserID, items[1].UserID}, []string{bob.ID, ann.ID})
			wantCode(t, f.st.RequestReviewers(ctx(t), []*quire.RequestedReviewer{req(&quire.User{ID: "nobody"}, "r0")}), quire.EINVALID)

			first := f.review(cr, ann, quire.ReviewChangesRequested)
			got, err := f.st.AllRequestedReviewers(ctx(t), cr.ID)
			must(t, err)
			equal(t, "requests after a review", ids(got, func(r *quire.RequestedReviewer) string { return r.UserID }), []string{bob.ID})
			second := f.review(cr, ann, quire.ReviewApproved)
			third := f.review(cr, bob, quire.ReviewApproved)
			f.review(other, bob, quire.ReviewApproved)

			list := func(outdated *bool, current string) []string {
				t.Helper()
				items, _ := collect(t, 2, func(p quire.Page) (*quire.List[*quire.Review], error) {
					return f.st.Reviews(ctx(t), quire.ReviewFilter{ChangeRequestID: cr.ID, Current: current, Outdated: outdated}, p)
				})
				return ids(items, reviewID)
			}
			equal(t, "all", list(nil, cr.Revision), []string{first.ID, second.ID, third.ID})
			equal(t, "outdated", list(ptr(true), cr.Revision), []string{first.ID})
			equal(t, "current", list(ptr(false), cr.Revision), []string{second.ID, third.ID})
			equal(t, "current at another revision", list(ptr(false), "moved"), []string{})
			cur, err := f.st.CurrentReviews(ctx(t), cr.ID, cr.Revision)
			must(t, err)
			equal(t, "current reviews", ids(cur, reviewID), []string{second.ID, third.ID})
			first.Superseded = true
			l, err := f.st.Reviews(ctx(t), quire.ReviewFilter{ChangeRequestID: cr.ID}, quire.Page{})
			must(t, err)
			equal(t, "stored first", l.Items[0].Superseded, true)
			equal(t, "stored second", *l.Items[1], *second)

			// Removing a request.
			removed, err := f.st.RemoveRequestedReviewer(ctx(t), cr.ID, bob.ID)
			must(t, err)
			equal(t, "removed", removed, false)
			must(t, f.st.RequestReviewers(ctx(t), []*quire.RequestedReviewer{req(bob, "r2")}))
			removed, err = f.st.RemoveRequestedReviewer(ctx(t), cr.ID, bob.ID)
			must(t, err)
			equal(t, "removed", removed, true)

			dup := *third
			wantCode(t, f.st.CreateReview(ctx(t), &dup), quire.ECONFLICT)
		}},
		{"reviews/a review's comment points back at it", func(t *testing.T, f *fixture) {
			o := f.org("A")
			author, ann := f.user("Ada", "ada@x.io"), f.user("Ann", "ann@x.io")
			sp := f.space(o, "", "a")
			cr := f.changeRequest(sp, author, quire.CROpen)
			rid := quire.NewID()
			c := &quire.Comment{ID: quire.NewID(), SpaceID: sp.ID, ChangeRequestID: cr.ID, Revision: cr.Revision,
				Target: quire.CommentTarget{Review: rid}, Body: commentBody("Fix it"), PostedBy: ann.ID, PostedAt: f.tick(),
				Status: quire.CommentOpen}
			must(t, f.st.CreateComment(ctx(t), c))
			now := f.tick()
			r := &quire.Review{ID: rid, SpaceID: sp.ID, ChangeRequestID: cr.ID, Revision: cr.Revision, Reviewer: ann.ID,
				RequestedBy: author.ID, Status: quire.ReviewChangesRequested, CommentID: c.ID, CreatedAt: now, UpdatedAt: now}
			must(t, f.st.CreateReview(ctx(t), r))
			got, err := f.st.Comment(ctx(t), sp.ID, cr.ID, c.ID)
			must(t, err)
			equal(t, "comment target", got.Target.Review, rid)
			l, err := f.st.Reviews(ctx(t), quire.ReviewFilter{ChangeRequestID: cr.ID}, quire.Page{})
			must(t, err)
			equal(t, "review", *l.Items[0], *r)
			// Deleting the comment leaves the review without one.
			_, err = f.st.DeleteComment(ctx(t), sp.ID, cr.ID, c.ID)
			must(t, err)
			l, err = f.st.Reviews(ctx(t), quire.ReviewFilter{ChangeRequestID: cr.ID}, quire.Page{})
			must(t, err)
			equal(t, "comment of the review", l.Items[0].CommentID, "")
		}},
		{"reviews/merge bypasses", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			cr := f.changeRequest(sp, u, quire.CROpen)
			_, err := f.st.MergeBypass(ctx(t), cr.ID)
			wantCode(t, err, quire.ENOTFOUND)
			b := &quire.MergeBypass{ChangeRequestID: cr.ID, SpaceID: sp.ID, UserID: u.ID, Revision: "r1",
				Rules: []quire.MergeRuleKind{quire.RuleAgentReview, quire.RuleUpToDate}, CreatedAt: f.tick()}
			must(t, f.st.RecordMergeBypass(ctx(t), b))
			got, err := f.st.MergeBypass(ctx(t), cr.ID)
			must(t, err)
			equal(t, "bypass", *got, *b)
			wantCode(t, f.st.RecordMergeBypass(ctx(t), b), quire.ECONFLICT)
		}},
		{"reviews/a change request's space comes with its organization's merge rules", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			cr := f.changeRequest(sp, u, quire.CROpen)
			rules := quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{
				{Rule: quire.RuleSpecificReviewers, Users: []string{u.ID}}, {Rule: quire.RuleUpToDate}}}
			_, err := f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{MergeRules: &rules})
			must(t, err)
			gotSp, _, err := f.st.SpaceChangeRequest(ctx(t), sp.ID, cr.ID)
			must(t, err)
			if gotSp.OrgMergeRules == nil {
				t.Fatal("no organization merge rules")
			}
			equal(t, "organization rules", *gotSp.OrgMergeRules, rules)
		}},
		{"reviews/content events carry their kind", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			cr := f.changeRequest(sp, u, quire.CROpen)
			move := &quire.ContentEvent{SpaceID: sp.ID, Previous: "a", Next: "b", CreatedAt: f.tick()}
			rev := &quire.ContentEvent{SpaceID: sp.ID, Kind: quire.EventReviewSubmitted, ChangeRequestID: cr.ID,
				Subject: "review1", Previous: "c", Next: "c", CreatedAt: f.tick()}
			must(t, f.st.AddContentEvent(ctx(t), move))
			must(t, f.st.AddContentEvent(ctx(t), rev))
			evs, err := f.st.ContentEvents(ctx(t), sp.ID, 10)
			must(t, err)
			equal(t, "events", len(evs), 2)
			equal(t, "move", *evs[0], quire.ContentEvent{ID: move.ID, SpaceID: sp.ID, Kind: quire.EventRevision,
				Previous: "a", Next: "b", CreatedAt: move.CreatedAt})
			equal(t, "review", *evs[1], *rev)
			equal(t, "moved", [2]bool{evs[0].Moved(), evs[1].Moved()}, [2]bool{true, false})
		}},
	}
}
