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

// TestMembersRoleChange checks the members page: an admin changes a
// role, a read member sees the list without controls and a forced POST
// of theirs is refused, the last admin cannot be demoted (the service's
// message on the page, not a 500), and an outsider gets the 404 page.
func TestMembersRoleChange(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		rita := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
		bob := h.newUser(t, "bob@acme.test", "Bob Builder", quire.RoleRead)
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, rita))
		path := "/app/o/" + h.Org + "/members"

		status, _, body := h.get(t, admin, path)
		if status != http.StatusOK || !strings.Contains(body, "Bob Builder") || !strings.Contains(body, `aria-label="Role of Bob Builder"`) {
			t.Fatalf("admin members page: %d\n%s", status, body)
		}
		status, loc, _ := h.postForm(t, admin, path+"/"+bob.ID+"/role", url.Values{"role": {"edit"}})
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, path+"?done=role") {
			t.Fatalf("role change: %d %q", status, loc)
		}
		if m, err := h.Svc.Member(ctx, h.Org, bob.ID); err != nil || m.Role != quire.RoleEdit {
			t.Fatalf("bob's role after the change: %v %v", m, err)
		}

		status, _, body = h.get(t, reader, path+"?q=bob")
		if status != http.StatusOK || !strings.Contains(body, "Bob Builder") || strings.Contains(body, "Rita Read</a>") {
			t.Fatalf("reader's filtered list: %d\n%s", status, body)
		}
		for _, control := range []string{"<select", "Remove", "Disable", `method="post" action="/app/o/`} {
			if strings.Contains(body, control) {
				t.Errorf("a read member is offered %q", control)
			}
		}
		status, _, _ = h.postForm(t, reader, path+"/"+bob.ID+"/role", url.Values{"role": {"admin"}})
		if status != http.StatusForbidden {
			t.Fatalf("reader's forced role change: %d", status)
		}
		if m, _ := h.Svc.Member(ctx, h.Org, bob.ID); m.Role != quire.RoleEdit {
			t.Fatalf("the refused change happened: %s", m.Role)
		}

		status, _, body = h.postForm(t, admin, path+"/"+h.Admin.ID+"/role", url.Values{"role": {"read"}})
		if status != http.StatusBadRequest || !strings.Contains(body, "role: the organization&#39;s last admin cannot lose the admin role") {
			t.Fatalf("demoting the last admin: %d\n%s", status, body)
		}
		status, _, body = h.postForm(t, admin, path+"/"+bob.ID+"/role", url.Values{"role": {"owner"}})
		if status != http.StatusBadRequest || !strings.Contains(body, "role: choose one of the listed roles") {
			t.Fatalf("unknown role: %d\n%s", status, body)
		}
		status, _, body = h.postForm(t, admin, path+"/nosuchuser/role", url.Values{"role": {"read"}})
		if status != http.StatusNotFound || !strings.Contains(body, "member not found") {
			t.Fatalf("unknown member: %d\n%s", status, body)
		}

		outsider := h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
		for _, p := range []string{path, path + "/" + bob.ID, "/app/o/" + h.Org + "/teams"} {
			if status, _, body := h.get(t, outsider, p); status != http.StatusNotFound || strings.Contains(body, "Bob") {
				t.Errorf("outsider on %s: %d", p, status)
			}
		}
		if status, _, _ := h.postForm(t, outsider, path+"/"+bob.ID+"/remove", nil); status != http.StatusNotFound {
			t.Errorf("outsider's forced removal: %d", status)
		}
	})
}

// TestMembersDisableRemove checks disabling, enabling and removing a
// member, and the member's own page with their teams and spaces.
func TestMembersDisableRemove(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		bob := h.newUser(t, "bob@acme.test", "Bob Builder", quire.RoleEdit)
		team, err := h.Svc.CreateTeam(ctx, h.Org, "Writers", []string{bob.ID})
		if err != nil {
			t.Fatal(err)
		}
		sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook"})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Svc.InviteToSpace(ctx, sp.Space.ID, quire.RoleComment, []string{bob.ID}, nil); err != nil {
			t.Fatal(err)
		}
		admin := h.client(t, h.signIn(t, h.Admin))
		path := "/app/o/" + h.Org + "/members/" + bob.ID
		status, _, body := h.get(t, admin, path)
		if status != http.StatusOK || !strings.Contains(body, "<h1>Bob Builder</h1>") || !strings.Contains(body, ">Writers</a>") || !strings.Contains(body, "Handbook</a>") {
			t.Fatalf("member page: %d\n%s", status, body)
		}

		if status, _, _ := h.postForm(t, admin, path+"/disable", nil); status != http.StatusSeeOther {
			t.Fatalf("disable: %d", status)
		}
		if m, _ := h.Svc.Member(ctx, h.Org, bob.ID); !m.Disabled {
			t.Fatal("bob is not disabled")
		}
		_, _, body = h.get(t, admin, "/app/o/"+h.Org+"/members")
		if !strings.Contains(body, "Disabled</span>") || !strings.Contains(body, `aria-label="Enable Bob Builder"`) {
			t.Fatalf("the list does not show bob disabled:\n%s", body)
		}
		if status, _, _ := h.get(t, h.client(t, h.signIn(t, bob)), "/app/o/"+h.Org+"/members"); status != http.StatusNotFound {
			t.Fatalf("a disabled member sees the members: %d", status)
		}
		if status, _, _ := h.postForm(t, admin, path+"/enable", nil); status != http.StatusSeeOther {
			t.Fatalf("enable: %d", status)
		}
		if m, _ := h.Svc.Member(ctx, h.Org, bob.ID); m.Disabled {
			t.Fatal("bob is still disabled")
		}
		status, _, body = h.postForm(t, admin, "/app/o/"+h.Org+"/members/"+h.Admin.ID+"/disable", nil)
		if status != http.StatusBadRequest || !strings.Contains(body, "last admin cannot be disabled") {
			t.Fatalf("disabling the last admin: %d\n%s", status, body)
		}

		if status, loc, _ := h.postForm(t, admin, path+"/remove", nil); status != http.StatusSeeOther || !strings.Contains(loc, "done=removed") {
			t.Fatalf("remove: %d %q", status, loc)
		}
		if _, err := h.Svc.Member(ctx, h.Org, bob.ID); !quire.IsNotFound(err) {
			t.Fatalf("bob is still a member: %v", err)
		}
		if status, _, _ := h.get(t, admin, path); status != http.StatusNotFound {
			t.Fatalf("a removed member's page: %d", status)
		}
		if tm, _ := h.Svc.Team(ctx, h.Org, team.ID); tm.Members != 0 {
			t.Fatalf("the team kept the removed member: %d", tm.Members)
		}
	})
}
