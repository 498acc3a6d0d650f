package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// member creates a user and makes them a member of org with role.
func member(t *testing.T, st quire.Store, org, name string, role quire.Role) *quire.User {
	t.Helper()
	ctx := context.Background()
	u := &quire.User{ID: quire.NewID(), DisplayName: name, Email: strings.ToLower(name) + "@example.com", CreatedAt: time.Now().UTC()}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := st.AddMember(ctx, &quire.Member{OrgID: org, User: *u, Role: role, JoinedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	return u
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// kinds lists the kinds of a person's notifications, newest first.
func kinds(t *testing.T, svc *service.Service, u *quire.User) []quire.NotificationKind {
	t.Helper()
	vs, _, err := svc.Notifications(context.Background(), u, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var out []quire.NotificationKind
	for _, v := range vs {
		out = append(out, v.Kind)
	}
	return out
}

// TestNotifications follows a change request through review and checks
// who is told of what: never the actor, the edit at most once an hour,
// mentions and replies, and each person's preferences.
func TestNotifications(t *testing.T) {
	t.Parallel()
	service.EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := context.Background()
		svc, owner, org := bootstrap(t, st)
		ada := member(t, st, org, "Ada", quire.RoleEdit)
		bob := member(t, st, org, "Bob", quire.RoleReview)
		sp, err := svc.CreateSpace(ctx, owner, org, service.SpaceInput{Title: "Docs"})
		if err != nil {
			t.Fatal(err)
		}
		cr, err := svc.CreateChangeRequest(ctx, ada, sp.Space.ID, "Fix")
		if err != nil {
			t.Fatal(err)
		}
		page := service.ContentChange{Operation: service.OpInsertPage, Fields: service.PageFields{Title: ptr("Intro")},
			Document: &service.DocumentInput{Markdown: ptr("Hello")}}
		_, res, err := svc.UpdateChangeRequestContent(ctx, ada, sp.Space.ID, cr.ID, []service.ContentChange{page})
		if err != nil {
			t.Fatal(err)
		}
		pageID := res[0].PageID
		if got := kinds(t, svc, ada); len(got) != 0 {
			t.Fatalf("the author's own edit told them: %v", got)
		}
		if _, err := svc.RequestReviewers(ctx, ada, sp.Space.ID, cr.ID, service.ReviewersRequest{Users: []string{bob.ID}}); err != nil {
			t.Fatal(err)
		}
		if got := kinds(t, svc, bob); len(got) != 1 || got[0] != quire.NotifyReviewRequested {
			t.Fatalf("bob: %v, want a review request", got)
		}
		n, _ := svc.UnreadNotifications(ctx, bob)
		if n != 1 {
			t.Fatalf("bob unread = %d", n)
		}
		// The owner edits twice: Ada hears of it once.
		for i := range 2 {
			ch := service.ContentChange{Operation: service.OpInsertPage, Fields: service.PageFields{Title: ptr("More " + string(rune('A'+i)))},
				Document: &service.DocumentInput{Markdown: ptr("x")}}
			if _, _, err := svc.UpdateChangeRequestContent(ctx, owner, sp.Space.ID, cr.ID, []service.ContentChange{ch}); err != nil {
				t.Fatal(err)
			}
		}
		if got := kinds(t, svc, ada); len(got) != 1 || got[0] != quire.NotifyEdited {
			t.Fatalf("ada after two edits: %v, want one edited", got)
		}
		// Ada turns the inbox off for approvals.
		if err := svc.SetNotificationPreferences(ctx, ada, []quire.NotificationPreference{{Kind: quire.NotifyApproved}}); err != nil {
			t.Fatal(err)
		}
		err = svc.SetNotificationPreferences(ctx, ada, []quire.NotificationPreference{{Kind: "bogus"}})
		if quire.ErrorCode(err) != quire.EINVALID || !strings.Contains(err.Error(), "kind") {
			t.Fatalf("bad kind: %v", err)
		}
		cmt := "Looks good"
		if _, err := svc.SubmitReview(ctx, service.Commenter{User: bob, Level: quire.LevelReview}, sp.Space.ID, cr.ID,
			service.ReviewInput{Status: quire.ReviewApproved, Comment: &service.DocumentInput{Markdown: &cmt}}); err != nil {
			t.Fatal(err)
		}
		if got := kinds(t, svc, ada); len(got) != 1 {
			t.Fatalf("ada got an approval she turned off: %v", got)
		}
		// A review whose comment mentions someone tells them.
		cara := member(t, st, org, "Cara", quire.RoleRead)
		mention := json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"ask ","marks":[]}]},` +
			`{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"` + cara.ID + `"}}}]}]}`)
		if _, err := svc.SubmitReview(ctx, service.Commenter{User: bob, Level: quire.LevelReview}, sp.Space.ID, cr.ID,
			service.ReviewInput{Status: quire.ReviewApproved, Comment: &service.DocumentInput{JSON: mention}}); err != nil {
			t.Fatal(err)
		}
		if got := kinds(t, svc, cara); len(got) != 1 || got[0] != quire.NotifyMentioned {
			t.Fatalf("cara mentioned in a review: %v, want one mention", got)
		}
		if _, err := svc.MergeChangeRequest(ctx, owner, sp.Space.ID, cr.ID); err != nil {
			t.Fatal(err)
		}
		if got := kinds(t, svc, ada); len(got) != 2 || got[0] != quire.NotifyMerged {
			t.Fatalf("ada after merge: %v", got)
		}
		// Bob mentions Ada in a comment of the space; Ada replies; Bob
		// hears of the reply.
		body := json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"see ","marks":[]}]},` +
			`{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"` + ada.ID + `"}}}]}]}`)
		cm, err := svc.PostComment(ctx, service.Commenter{User: bob, Level: quire.LevelReview}, service.CommentScope{SpaceID: sp.Space.ID},
			service.CommentInput{Page: pageID, Body: service.DocumentInput{JSON: body}})
		if err != nil {
			t.Fatal(err)
		}
		if got := kinds(t, svc, ada); len(got) != 3 || got[0] != quire.NotifyMentioned {
			t.Fatalf("ada after mention: %v", got)
		}
		if _, err := svc.PostReply(ctx, service.Commenter{User: ada, Level: quire.LevelEdit}, service.CommentScope{SpaceID: sp.Space.ID},
			cm.Comment.ID, service.DocumentInput{Markdown: ptr("Thanks")}); err != nil {
			t.Fatal(err)
		}
		if got := kinds(t, svc, bob); len(got) != 2 || got[0] != quire.NotifyReplied {
			t.Fatalf("bob after reply: %v", got)
		}
		// Marking read.
		vs, _, _ := svc.Notifications(ctx, bob, 0, 50)
		if err := svc.MarkNotificationRead(ctx, bob, vs[0].ID); err != nil {
			t.Fatal(err)
		}
		if err := svc.MarkNotificationRead(ctx, ada, vs[1].ID); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Fatalf("marking another's notification: %v", err)
		}
		if n, _ := svc.UnreadNotifications(ctx, bob); n != 1 {
			t.Fatalf("bob unread after one read = %d", n)
		}
		if err := svc.MarkAllNotificationsRead(ctx, bob); err != nil {
			t.Fatal(err)
		}
		if n, _ := svc.UnreadNotifications(ctx, bob); n != 0 {
			t.Fatalf("bob unread after all read = %d", n)
		}
		// Activity was recorded for live viewers.
		acts, err := st.ActivityAfter(ctx, 0, 100)
		if err != nil || len(acts) < 5 {
			t.Fatalf("activity: %d, %v", len(acts), err)
		}
	})
}
