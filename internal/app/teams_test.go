package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
)

// TestTeamsCRUD checks that an admin creates, renames and deletes a team
// and adds and removes its members, that invalid input comes back on the
// page, and that a read member sees the teams without controls and is
// refused a forced change.
func TestTeamsCRUD(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		rita := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, rita))
		teams := "/app/o/" + h.Org + "/teams"

		status, _, body := h.postForm(t, admin, teams, url.Values{"title": {"  "}})
		if status != http.StatusBadRequest || !strings.Contains(body, `aria-invalid="true"`) || !strings.Contains(body, "title:") {
			t.Fatalf("blank title: %d\n%s", status, body)
		}
		status, loc, _ := h.postForm(t, admin, teams, url.Values{"title": {"Writers"}})
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, teams+"/") {
			t.Fatalf("create: %d %q", status, loc)
		}
		teamPath := strings.TrimSuffix(loc, "?done=created")
		teamID := strings.TrimPrefix(teamPath, teams+"/")

		status, _, body = h.get(t, admin, teamPath)
		if status != http.StatusOK || !strings.Contains(body, "<h1>Writers</h1>") || !strings.Contains(body, ">Rita Read (rita@acme.test)</option>") {
			t.Fatalf("team page: %d\n%s", status, body)
		}
		if status, _, _ := h.postForm(t, admin, teamPath+"/members", url.Values{"user": {rita.ID}}); status != http.StatusSeeOther {
			t.Fatalf("add member: %d", status)
		}
		status, _, body = h.postForm(t, admin, teamPath+"/members", url.Values{"user": {"nosuchuser"}})
		if status != http.StatusBadRequest || !strings.Contains(body, "not a member of the organization") {
			t.Fatalf("adding a stranger: %d\n%s", status, body)
		}
		status, _, body = h.get(t, reader, teamPath)
		if status != http.StatusOK || !strings.Contains(body, "Rita Read</a>") || strings.Contains(body, "<form method=\"post\" action=\""+teamPath) || strings.Contains(body, "Rename") {
			t.Fatalf("reader's team page: %d\n%s", status, body)
		}
		if status, _, _ := h.postForm(t, reader, teamPath+"/rename", url.Values{"title": {"Mine"}}); status != http.StatusForbidden {
			t.Fatalf("reader's forced rename: %d", status)
		}
		if status, _, _ := h.postForm(t, reader, teams, url.Values{"title": {"Mine"}}); status != http.StatusForbidden {
			t.Fatalf("reader's forced create: %d", status)
		}
		_, _, body = h.get(t, reader, teams)
		if !strings.Contains(body, ">Writers</a>") || strings.Contains(body, "Create team") {
			t.Fatalf("reader's teams list:\n%s", body)
		}

		if status, _, _ := h.postForm(t, admin, teamPath+"/rename", url.Values{"title": {"Editors"}}); status != http.StatusSeeOther {
			t.Fatalf("rename: %d", status)
		}
		if tm, err := h.Svc.Team(ctx, h.Org, teamID); err != nil || tm.Title != "Editors" || tm.Members != 1 {
			t.Fatalf("after rename and add: %+v %v", tm, err)
		}
		if status, _, _ := h.postForm(t, admin, teamPath+"/members/"+rita.ID+"/remove", nil); status != http.StatusSeeOther {
			t.Fatalf("remove member: %d", status)
		}
		if tm, _ := h.Svc.Team(ctx, h.Org, teamID); tm.Members != 0 {
			t.Fatalf("rita is still in the team")
		}
		if status, loc, _ := h.postForm(t, admin, teamPath+"/delete", nil); status != http.StatusSeeOther || loc != teams+"?done=deleted" {
			t.Fatalf("delete: %d %q", status, loc)
		}
		if status, _, _ := h.get(t, admin, teamPath); status != http.StatusNotFound {
			t.Fatalf("deleted team's page: %d", status)
		}
		if status, _, _ := h.postForm(t, admin, teamPath+"/rename", url.Values{"title": {"Ghost"}}); status != http.StatusNotFound {
			t.Fatalf("renaming a deleted team: %d", status)
		}
	})
}
