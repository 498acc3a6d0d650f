package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestInboxHidesSpacesNoLongerRead checks that the inbox names the space
// and change request of a notification while its recipient may read the
// space, and shows a neutral line without a link once they may not; its
// sidebar leads to the person's organizations.
func TestInboxHidesSpacesNoLongerRead(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newCRFixture(t, h)
		if _, err := h.Svc.RequestReviewers(ctx, f.Writer, f.Space, f.CR.ID, service.ReviewersRequest{Users: []string{f.Reviewer.ID}}); err != nil {
			t.Fatal(err)
		}
		link := "/app/s/" + f.Space + "/~/changes/"
		status, _, body := h.get(t, f.R, "/app/inbox")
		if status != http.StatusOK || !strings.Contains(body, "Better intro") || !strings.Contains(body, " in Guide") || !strings.Contains(body, link) {
			t.Fatalf("the reviewer's inbox: %d, want the change request named and linked\n%s", status, body)
		}
		// The sidebar leads to the person's organizations and their
		// lists of change requests waiting for them.
		if review := `<a href="/app/o/` + h.Org + `/changes?who=review">Waiting for my review</a>`; !strings.Contains(body, review) {
			t.Errorf("the inbox's sidebar lacks %s", review)
		}
		noRole := quire.Role("")
		if _, err := h.Svc.UpdateMemberRole(ctx, h.Org, f.Reviewer.ID, &noRole); err != nil {
			t.Fatal(err)
		}
		status, _, body = h.get(t, f.R, "/app/inbox")
		if status != http.StatusOK {
			t.Fatalf("the inbox after losing access: %d", status)
		}
		for _, leak := range []string{"Better intro", "Guide", link} {
			if strings.Contains(body, leak) {
				t.Errorf("the inbox shows %q of a space its reader may no longer read", leak)
			}
		}
		if !strings.Contains(body, "A notification about a space you can no longer read") {
			t.Errorf("the inbox lacks the neutral line:\n%s", body)
		}
	})
}
