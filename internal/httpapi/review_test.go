package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// authoredCR creates a change request as the editor, with one page
// written by them, and returns its id.
func (ts *testServer) authoredCR(t *testing.T, space, subject string) string {
	t.Helper()
	cr := str(ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+space+"/change-requests", ts.token(cEdit),
		map[string]any{"subject": subject}), "id")
	ts.writeContentAs(t, ts.token(cEdit), space, cr, insertPage("Page "+quire.NewID(), "Text."))
	return cr
}

// review submits a review as caller and returns it.
func (ts *testServer) review(t *testing.T, caller, space, cr, status string) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusCreated, "POST", crPath(space, cr, "/reviews"), ts.token(caller),
		map[string]any{"status": status})
}

// reviewIDs lists a change request's review ids with a query.
func (ts *testServer) reviewIDs(t *testing.T, space, cr, query string) []string {
	t.Helper()
	return listIDs(t, ts.must(t, http.StatusOK, "GET", crPath(space, cr, "/reviews"+query), ts.token(cRead), nil))
}

// requestedUsers lists the ids of a change request's requested reviewers.
func (ts *testServer) requestedUsers(t *testing.T, space, cr string) []string {
	t.Helper()
	l := ts.must(t, http.StatusOK, "GET", crPath(space, cr, "/requested-reviewers"), ts.token(cRead), nil)
	var out []string
	for _, it := range l["items"].([]any) {
		out = append(out, str(it, "user.id"))
	}
	return out
}

func TestReviewsAndRequestedReviewers(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		author, reviewer, admin := ts.user(cEdit), ts.user(cReview), ts.user(cAdmin)
		sp := ts.newSpace(t, "Reviewed")
		cr := ts.authoredCR(t, sp, "Fix the guide")
		rev1 := ts.crRevision(t, sp, cr)
		wantFields(t, ts.getCR(t, sp, cr), map[string]any{"status": "draft"})

		// Asking for reviewers opens the change request and may set its
		// subject and description.
		desc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
				map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Why", "marks": []any{}}}}}}}}
		res := ts.must(t, 200, "POST", crPath(sp, cr, "/requested-reviewers"), author.Token,
			map[string]any{"users": []string{reviewer.ID, admin.ID, reviewer.ID}, "subject": "Fix the whole guide", "description": desc})
		users := res["users"].([]any)
		if len(users) != 2 {
			t.Fatalf("requests: %v", res)
		}
		wantFields(t, users[0].(map[string]any), map[string]any{"object": "change-request-requested-reviewer",
			"kind": "user", "user.id": reviewer.ID, "requestedBy.id": author.ID, "revision": rev1})
		if !timestampRE.MatchString(str(users[0], "createdAt")) {
			t.Errorf("createdAt %v", users[0])
		}
		wantFields(t, ts.getCR(t, sp, cr), map[string]any{"status": "open", "subject": "Fix the whole guide",
			"description.nodes.0.type": "paragraph"})
		if got := ts.requestedUsers(t, sp, cr); !slices.Equal(got, []string{admin.ID, reviewer.ID}) &&
			!slices.Equal(got, []string{reviewer.ID, admin.ID}) {
			t.Errorf("requested reviewers %v", got)
		}

		// Who may be asked, and who may review.
		for i, c := range []struct {
			users   []string
			mention string
		}{
			{[]string{author.ID}, "author"},
			{[]string{reviewer.ID, ts.user(cComment).ID}, "users[1]"},
			{[]string{"nosuchuser"}, "no such user"},
			{[]string{ts.user(cNonMember).ID}, "cannot review"},
		} {
			msg := ts.mustError(t, 400, "POST", crPath(sp, cr, "/requested-reviewers"), author.Token, map[string]any{"users": c.users})
			wantContains(t, msg, c.mention)
			if i == 1 {
				wantContains(t, msg, "review role")
			}
		}
		wantContains(t, ts.mustError(t, 403, "POST", crPath(sp, cr, "/reviews"), author.Token,
			map[string]any{"status": "approved"}), "author")
		ts.mustError(t, 403, "POST", crPath(sp, cr, "/reviews"), ts.token(cComment), map[string]any{"status": "approved"})
		if got := ts.reviewIDs(t, sp, cr, ""); len(got) != 0 {
			t.Fatalf("refused reviews were recorded: %v", got)
		}

		// A review with a comment: the comment is the change request's,
		// and points back at the review; the request to review is done.
		r := ts.send(t, "POST", crPath(sp, cr, "/reviews"), reviewer.Token,
			map[string]any{"status": "changes-requested", "comment": md("Please fix the *title*.")})
		if r.Status != http.StatusCreated {
			t.Fatalf("submit review: %d %s", r.Status, r.Body)
		}
		first := r.obj(t)
		firstID := str(first, "id")
		wantFields(t, first, map[string]any{"object": "change-request-review", "revision": rev1, "reviewer.id": reviewer.ID,
			"requestedBy.id": author.ID, "status": "changes-requested", "outdated": false,
			"comment.object": "comment", "comment.body.markdown": "Please fix the _title_.\n",
			"comment.target.review": firstID, "comment.target.changeRequest": cr, "comment.postedBy.id": reviewer.ID})
		if loc := r.Header.Get("Location"); !strings.HasSuffix(loc, crPath(sp, cr, "/reviews")) {
			t.Errorf("Location %q", loc)
		}
		if got := ts.requestedUsers(t, sp, cr); !slices.Equal(got, []string{admin.ID}) {
			t.Errorf("requested reviewers after a review: %v", got)
		}
		comments := ts.must(t, 200, "GET", crPath(sp, cr, "/comments"), author.Token, nil)
		wantFields(t, comments, map[string]any{"count": 1, "items.0.id": str(first, "comment.id"), "items.0.target.review": firstID})
		wantFields(t, ts.getCR(t, sp, cr), map[string]any{"comments": 1})
		l := ts.must(t, 200, "GET", crPath(sp, cr, "/reviews?format=document"), ts.token(cRead), nil)
		wantFields(t, l, map[string]any{"count": 1, "items.0.id": firstID, "items.0.comment.body.document.object": "document"})

		// The author pushes a fix: the first review is outdated.
		ts.writeContentAs(t, author.Token, sp, cr, insertPage("Fix", "Fixed."))
		rev2 := ts.crRevision(t, sp, cr)
		wantFields(t, ts.must(t, 200, "GET", crPath(sp, cr, "/reviews"), ts.token(cRead), nil),
			map[string]any{"items.0.outdated": true})
		if got := ts.reviewIDs(t, sp, cr, "?outdated=true"); !slices.Equal(got, []string{firstID}) {
			t.Errorf("outdated reviews %v", got)
		}
		if got := ts.reviewIDs(t, sp, cr, "?outdated=false"); len(got) != 0 {
			t.Errorf("current reviews %v", got)
		}

		// Both approve; a review made without a request has no requestedBy.
		second := ts.review(t, cReview, sp, cr, "approved")
		wantFields(t, second, map[string]any{"revision": rev2, "outdated": false})
		wantAbsent(t, second, "requestedBy")
		wantAbsent(t, second, "comment")
		third := ts.review(t, cAdmin, sp, cr, "approved")
		wantFields(t, third, map[string]any{"requestedBy.id": author.ID})
		if got := ts.reviewIDs(t, sp, cr, "?outdated=false"); !slices.Equal(got, []string{str(second, "id"), str(third, "id")}) {
			t.Errorf("current reviews %v", got)
		}
		if got := ts.requestedUsers(t, sp, cr); len(got) != 0 {
			t.Errorf("requested reviewers left: %v", got)
		}
		// Reviewing again supersedes one's own earlier review.
		fourth := ts.review(t, cReview, sp, cr, "changes-requested")
		if got := ts.reviewIDs(t, sp, cr, "?outdated=false"); !slices.Equal(got, []string{str(third, "id"), str(fourth, "id")}) {
			t.Errorf("current reviews after a second review %v", got)
		}
		page := ts.must(t, 200, "GET", crPath(sp, cr, "/reviews?limit=3"), ts.token(cRead), nil)
		wantFields(t, page, map[string]any{"count": 4, "items.2.id": str(third, "id")})
		next := ts.must(t, 200, "GET", crPath(sp, cr, "/reviews?limit=3&page="+str(page, "next.page")), ts.token(cRead), nil)
		if got := listIDs(t, next); !slices.Equal(got, []string{str(fourth, "id")}) {
			t.Errorf("second page %v", got)
		}

		// Removing a request: 205, then 204 when there is none.
		ts.must(t, 200, "POST", crPath(sp, cr, "/requested-reviewers"), author.Token, map[string]any{"users": []string{ts.user(cCreate).ID}})
		ts.must(t, http.StatusResetContent, "DELETE", crPath(sp, cr, "/requested-reviewers/"+ts.user(cCreate).ID), author.Token, nil)
		ts.must(t, http.StatusNoContent, "DELETE", crPath(sp, cr, "/requested-reviewers/"+ts.user(cCreate).ID), author.Token, nil)
		if got := ts.requestedUsers(t, sp, cr); len(got) != 0 {
			t.Errorf("requested reviewers after removal: %v", got)
		}

		// Unknown change requests, and a merged one, take nothing.
		ts.mustError(t, 404, "GET", crPath(sp, "99", "/reviews"), admin.Token, nil)
		ts.mustError(t, 404, "POST", crPath(sp, "99", "/reviews"), admin.Token, map[string]any{"status": "approved"})
		ts.mustError(t, 404, "GET", crPath(sp, "99", "/requested-reviewers"), admin.Token, nil)
		ts.mustError(t, 404, "POST", crPath(sp, "99", "/requested-reviewers"), admin.Token, map[string]any{"users": []string{}})
		ts.mergeCR(t, sp, cr)
		wantContains(t, ts.mustError(t, 400, "POST", crPath(sp, cr, "/reviews"), admin.Token, map[string]any{"status": "approved"}), "merged")
		wantContains(t, ts.mustError(t, 400, "POST", crPath(sp, cr, "/requested-reviewers"), author.Token,
			map[string]any{"users": []string{reviewer.ID}}), "merged")
		if got := ts.reviewIDs(t, sp, cr, ""); len(got) != 4 {
			t.Errorf("reviews after merge: %v", got)
		}
	})
}

// TestReviewEvents checks that reviews and requests for reviewers record
// content events of their own kinds beside the merge's, and that the
// search subscriber passes over them.
func TestReviewEvents(t *testing.T) {
	t.Parallel()
	for _, e := range engines() {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			// Without a queue the events stay recorded for the test to read.
			ts := newTestServer(t, e, service.WithQueue(nil))
			ctx := context.Background()
			sp := ts.newSpace(t, "Events")
			cr := ts.authoredCR(t, sp, "Change")
			ts.must(t, 200, "POST", crPath(sp, cr, "/requested-reviewers"), ts.token(cEdit),
				map[string]any{"users": []string{ts.user(cReview).ID, ts.user(cAdmin).ID}})
			rv := ts.review(t, cReview, sp, cr, "approved")
			ts.mergeCR(t, sp, cr)
			evs, err := ts.Store.ContentEvents(ctx, sp, 100)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, ev := range evs {
				kinds = append(kinds, string(ev.Kind))
				switch ev.Kind {
				case quire.EventReviewersRequested:
					if ev.ChangeRequestID != cr || ev.Subject != ts.user(cReview).ID+","+ts.user(cAdmin).ID {
						t.Errorf("reviewers event %+v", ev)
					}
				case quire.EventReviewSubmitted:
					if ev.ChangeRequestID != cr || ev.Subject != str(rv, "id") || ev.Next != str(rv, "revision") {
						t.Errorf("review event %+v", ev)
					}
				}
			}
			want := []string{"revision", "reviewers-requested", "review-submitted", "revision"}
			if !slices.Equal(kinds, want[1:]) && !slices.Equal(kinds, want) {
				t.Fatalf("event kinds %v, want %v", kinds, want[1:])
			}
			var seen []quire.ContentEventKind
			events := service.NewContentEvents(ts.Svc)
			events.Subscribe("search", ts.Svc.IndexContent)
			events.Subscribe("record", func(_ context.Context, ev *quire.ContentEvent) error {
				seen = append(seen, ev.Kind)
				return nil
			})
			if err := events.RunJob(ctx, service.ContentJob{Space: sp}); err != nil {
				t.Fatal(err)
			}
			if len(seen) != len(evs) {
				t.Errorf("subscriber saw %v", seen)
			}
			res := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/search?query=text", ts.token(cRead), nil)
			if n := len(res["items"].([]any)); n != 1 {
				t.Errorf("search after the events: %v", res)
			}
		})
	}
}
