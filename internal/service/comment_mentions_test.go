package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// mentionDoc is a one-paragraph body mentioning a user, after text.
func mentionDoc(text, userID string) json.RawMessage {
	return json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},"nodes":[` +
		`{"object":"text","leaves":[{"object":"leaf","text":"` + text + `","marks":[]}]},` +
		`{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"` + userID + `"}}}]}]}`)
}

// TestMentionChecks refuses a review whose comment mentions someone who
// cannot read the space, naming the field, and lets the author of a
// comment fix a typo in it after someone it mentions lost access, while
// a new mention of that person is still refused.
func TestMentionChecks(t *testing.T) {
	t.Parallel()
	service.EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := context.Background()
		svc, owner, org := bootstrap(t, st)
		ada := member(t, st, org, "Ada", quire.RoleEdit)
		bob := member(t, st, org, "Bob", quire.RoleReview)
		stranger := &quire.User{ID: quire.NewID(), DisplayName: "Sam", Email: "sam@elsewhere.test"}
		if err := st.CreateUser(ctx, stranger); err != nil {
			t.Fatal(err)
		}
		sp, err := svc.CreateSpace(ctx, owner, org, service.SpaceInput{Title: "Docs"})
		if err != nil {
			t.Fatal(err)
		}
		cr, err := svc.CreateChangeRequest(ctx, ada, sp.Space.ID, "Fix")
		if err != nil {
			t.Fatal(err)
		}
		bobSays := service.Commenter{User: bob, Level: quire.LevelReview}
		_, err = svc.SubmitReview(ctx, bobSays, sp.Space.ID, cr.ID, service.ReviewInput{Status: quire.ReviewApproved,
			Comment: &service.DocumentInput{JSON: mentionDoc("ask ", stranger.ID)}})
		if quire.ErrorCode(err) != quire.EINVALID || !strings.Contains(err.Error(), "comment") {
			t.Fatalf("a review mentioning a stranger: %v, want invalid comment", err)
		}

		scope := service.CommentScope{SpaceID: sp.Space.ID}
		cm, err := svc.PostComment(ctx, bobSays, scope, service.CommentInput{Body: service.DocumentInput{JSON: mentionDoc("se ", ada.ID)}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.RemoveMember(ctx, org, ada.ID); err != nil {
			t.Fatal(err)
		}
		fixed := mentionDoc("see ", ada.ID)
		if _, err := svc.UpdateComment(ctx, bobSays, scope, cm.Comment.ID, service.CommentPatch{Body: &service.DocumentInput{JSON: fixed}}); err != nil {
			t.Fatalf("fixing a typo beside an old mention: %v", err)
		}
		_, err = svc.PostComment(ctx, bobSays, scope, service.CommentInput{Body: service.DocumentInput{JSON: mentionDoc("and ", ada.ID)}})
		if quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("a new mention of someone who left: %v, want invalid", err)
		}
	})
}
