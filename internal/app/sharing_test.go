package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestSharingSpace checks a space's sharing page: an admin shares with a
// person and a team, changes and removes a role and sets the default
// access; a collection's share shows as inherited; a read member sees
// who has access without controls and is refused a forced change; an
// outsider gets the 404 page.
func TestSharingSpace(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		rita := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
		bob := h.newUser(t, "bob@acme.test", "Bob Builder", quire.RoleRead)
		team, err := h.Svc.CreateTeam(ctx, h.Org, "Writers", nil)
		if err != nil {
			t.Fatal(err)
		}
		guides, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", "")
		if err != nil {
			t.Fatal(err)
		}
		sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook", Parent: guides.Collection.ID})
		if err != nil {
			t.Fatal(err)
		}
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, rita))
		base := "/app/s/" + sp.Space.ID + "/~/sharing"

		if status, loc, _ := h.postForm(t, admin, base, url.Values{"user": {bob.ID}, "role": {"comment"}}); status != http.StatusSeeOther || loc != base+"?done=shared" {
			t.Fatalf("share with bob: %d %q", status, loc)
		}
		if status, _, _ := h.postForm(t, admin, base, url.Values{"team": {team.ID}, "role": {"edit"}}); status != http.StatusSeeOther {
			t.Fatalf("share with the team: %d", status)
		}
		status, _, body := h.postForm(t, admin, base, url.Values{"user": {"nosuchuser"}, "role": {"read"}})
		if status != http.StatusNotFound || !strings.Contains(body, "no member with id") || !strings.Contains(body, "<h1>Sharing</h1>") {
			t.Fatalf("sharing with a stranger: %d\n%s", status, body)
		}
		status, _, body = h.postForm(t, admin, base, url.Values{"team": {""}, "role": {"read"}})
		if status != http.StatusBadRequest || !strings.Contains(body, "team: choose who to share with") {
			t.Fatalf("sharing with no one: %d\n%s", status, body)
		}
		if status, _, _ := h.postForm(t, admin, base+"/users/"+bob.ID, url.Values{"role": {"review"}}); status != http.StatusSeeOther {
			t.Fatalf("change bob's role: %d", status)
		}
		users, err := h.Svc.SpaceUserGrants(ctx, sp.Space.ID, quire.Page{})
		if err != nil || len(users.Items) != 1 || users.Items[0].Role != quire.RoleReview {
			t.Fatalf("bob's grant: %+v %v", users, err)
		}
		if err := h.Svc.InviteToCollection(ctx, guides.Collection.ID, quire.RoleRead, []string{rita.ID}, nil); err != nil {
			t.Fatal(err)
		}
		if status, _, _ := h.postForm(t, admin, base+"/default", url.Values{"default": {"none"}}); status != http.StatusSeeOther {
			t.Fatalf("default none: %d", status)
		}
		if got, _ := h.Svc.Space(ctx, sp.Space.ID); got.DefaultLevel != quire.DefaultNone {
			t.Fatalf("default level %q", got.DefaultLevel)
		}

		status, _, body = h.get(t, reader, base)
		if status != http.StatusOK || !strings.Contains(body, "Bob Builder</a>") || !strings.Contains(body, "Writers</a>") ||
			!strings.Contains(body, `From <a href="/app/c/`+guides.Collection.ID+`/sharing">Guides</a>`) || !strings.Contains(body, "no access by default") {
			t.Fatalf("reader's sharing page: %d\n%s", status, body)
		}
		if strings.Contains(body, "<select") || strings.Contains(body, "Remove") {
			t.Fatal("a read member is offered sharing controls")
		}
		if status, _, _ := h.postForm(t, reader, base+"/teams/"+team.ID+"/remove", nil); status != http.StatusForbidden {
			t.Fatalf("reader's forced removal: %d", status)
		}
		if status, _, _ := h.postForm(t, admin, base+"/teams/"+team.ID+"/remove", nil); status != http.StatusSeeOther {
			t.Fatalf("remove the team: %d", status)
		}
		teams, _ := h.Svc.SpaceTeamGrants(ctx, sp.Space.ID, quire.Page{})
		if len(teams.Items) != 0 {
			t.Fatalf("the team kept its grant: %+v", teams.Items)
		}
		status, _, body = h.postForm(t, admin, base+"/teams/"+team.ID+"/remove", nil)
		if status != http.StatusNotFound || !strings.Contains(body, "team permission not found") {
			t.Fatalf("removing a removed grant: %d\n%s", status, body)
		}
		if status, _, _ := h.postForm(t, admin, base+"/robots/x", url.Values{"role": {"read"}}); status != http.StatusNotFound {
			t.Fatalf("unknown principal kind: %d", status)
		}

		outsider := h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
		if status, _, body := h.get(t, outsider, base); status != http.StatusNotFound || strings.Contains(body, "Handbook") {
			t.Fatalf("outsider: %d", status)
		}
	})
}

// TestSharingCollection checks sharing a collection with a team and
// changing its role, which reaches the spaces in it.
func TestSharingCollection(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		guest := h.newUser(t, "gus@acme.test", "Gus Guest", quire.RoleRead)
		none := quire.Role("")
		if _, err := h.Svc.UpdateMemberRole(ctx, h.Org, guest.ID, &none); err != nil {
			t.Fatal(err)
		}
		team, err := h.Svc.CreateTeam(ctx, h.Org, "Partners", []string{guest.ID})
		if err != nil {
			t.Fatal(err)
		}
		guides, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", "")
		if err != nil {
			t.Fatal(err)
		}
		sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Install", Parent: guides.Collection.ID})
		if err != nil {
			t.Fatal(err)
		}
		admin := h.client(t, h.signIn(t, h.Admin))
		base := "/app/c/" + guides.Collection.ID + "/sharing"
		if status, _, _ := h.postForm(t, admin, base, url.Values{"team": {team.ID}, "role": {"read"}}); status != http.StatusSeeOther {
			t.Fatalf("share the collection: %d", status)
		}
		gus := h.client(t, h.signIn(t, guest))
		if status, _, _ := h.get(t, gus, "/app/s/"+sp.Space.ID+"/~/sharing"); status != http.StatusOK {
			t.Fatalf("the team's guest on the space: %d", status)
		}
		if status, _, _ := h.postForm(t, admin, base+"/teams/"+team.ID, url.Values{"role": {"edit"}}); status != http.StatusSeeOther {
			t.Fatalf("change the team's role: %d", status)
		}
		_, _, body := h.get(t, admin, base)
		if !strings.Contains(body, `<option value="edit" selected>Edit</option>`) {
			t.Fatalf("the collection's page does not show edit:\n%s", body)
		}
		if status, _, _ := h.postForm(t, gus, base+"/teams/"+team.ID, url.Values{"role": {"admin"}}); status != http.StatusForbidden {
			t.Fatalf("guest's forced change: %d", status)
		}
	})
}
