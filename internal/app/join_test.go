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

// secondOrg creates another organization, Beta Works, with its own
// admin, and returns its id.
func secondOrg(t *testing.T, h *harness) string {
	t.Helper()
	res, err := h.Svc.Bootstrap(context.Background(), service.BootstrapInput{OrgTitle: "Beta Works", Email: "bo@beta.test", Name: "Bo Beta"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Organization
}

// newInvite makes an invite link into org with role and returns its id.
func newInvite(t *testing.T, acc *service.Accounts, org string, role quire.Role) string {
	t.Helper()
	inv, err := acc.CreateInvite(context.Background(), org, role)
	if err != nil {
		t.Fatal(err)
	}
	return inv.ID
}

// roleIn is a user's role in an organization, and whether they are a
// member there.
func (h *harness) roleIn(t *testing.T, org string, u *quire.User) (quire.Role, bool) {
	t.Helper()
	m, err := h.Store.Member(context.Background(), org, u.ID)
	if quire.IsNotFound(err) {
		return "", false
	} else if err != nil {
		t.Fatal(err)
	}
	return m.Role, true
}

// TestJoinInviteSignedIn checks that a member of one organization joins
// another through its invite link with the link's role, that a member
// already keeps their role, and that a revoked link, a link of an
// organization that turned invite links off, a cross-site request and a
// signed-out request add no one.
func TestJoinInviteSignedIn(t *testing.T) {
	var accs accountsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		acc := accs.of(h)
		beta := secondOrg(t, h)
		inv := newInvite(t, acc, beta, quire.RoleEdit)
		ed := h.newUser(t, "ed@acme.test", "Ed Acme", quire.RoleRead)
		c := h.client(t, h.signIn(t, ed))

		code, _, body := h.get(t, c, "/app/join/"+inv)
		if code != http.StatusOK || !strings.Contains(body, "<h1>Join Beta Works</h1>") ||
			!strings.Contains(body, "as <strong>Edit</strong>") || !strings.Contains(body, `action="/app/join/`+inv+`/accept"`) ||
			!strings.Contains(body, ">Join Beta Works as Edit</button>") || !strings.Contains(body, "ed@acme.test") {
			t.Fatalf("join page signed in: %d\n%s", code, body)
		}
		if strings.Contains(body, "Create account") {
			t.Error("a signed-in person is offered to sign up again")
		}
		if code, _, _ := h.get(t, c, "/app/o/"+beta); code != http.StatusNotFound {
			t.Fatalf("before joining, the organization answers %d", code)
		}

		// A request from another site is refused before it adds anyone.
		code, _, body = h.do(t, c, http.MethodPost, "/app/join/"+inv+"/accept", strings.NewReader(""), http.Header{
			"Content-Type": {"application/x-www-form-urlencoded"}, "Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}})
		if code != http.StatusForbidden || !strings.Contains(body, "came from another site") {
			t.Fatalf("cross-site join: %d\n%s", code, body)
		}
		if _, ok := h.roleIn(t, beta, ed); ok {
			t.Fatal("a cross-site request made a member")
		}
		// Signed out, the button sends to sign in and adds no one.
		if code, loc, _ := h.postForm(t, h.client(t, nil), "/app/join/"+inv+"/accept", nil); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in") {
			t.Fatalf("signed-out join: %d %q", code, loc)
		}

		code, loc, _ := h.postForm(t, c, "/app/join/"+inv+"/accept", nil)
		if code != http.StatusSeeOther || loc != "/app/o/"+beta {
			t.Fatalf("join: %d %q", code, loc)
		}
		if role, ok := h.roleIn(t, beta, ed); !ok || role != quire.RoleEdit {
			t.Fatalf("after joining: role %q, member %v", role, ok)
		}
		if role, _ := h.roleIn(t, h.Org, ed); role != quire.RoleRead {
			t.Errorf("joining changed the role in the first organization to %q", role)
		}
		if code, _, body := h.get(t, c, loc); code != http.StatusOK || !strings.Contains(body, "<h1>Beta Works</h1>") {
			t.Fatalf("the joined organization: %d\n%s", code, body)
		}

		// A member already is told so, with the way in, and keeps their role.
		admin := newInvite(t, acc, beta, quire.RoleAdmin)
		for _, send := range []func() (int, string, string){
			func() (int, string, string) { return h.get(t, c, "/app/join/"+admin) },
			func() (int, string, string) { return h.postForm(t, c, "/app/join/"+admin+"/accept", nil) },
		} {
			code, _, body := send()
			if code != http.StatusOK || !strings.Contains(body, "You are already a member of Beta Works, as <strong>Edit</strong>") ||
				!strings.Contains(body, `href="/app/o/`+beta+`"`) || strings.Contains(body, "/accept") {
				t.Fatalf("a member already: %d\n%s", code, body)
			}
		}
		if role, _ := h.roleIn(t, beta, ed); role != quire.RoleEdit {
			t.Errorf("an admin link changed a member's role to %q", role)
		}

		// A turned-off membership stays off: the link does not turn it on.
		if _, err := h.Svc.SetMemberDisabled(context.Background(), beta, ed.ID, true); err != nil {
			t.Fatal(err)
		}
		code, _, body = h.postForm(t, c, "/app/join/"+admin+"/accept", nil)
		if code != http.StatusOK || !strings.Contains(body, "Your membership of Beta Works is turned off") {
			t.Fatalf("a turned-off member: %d\n%s", code, body)
		}
		if m, err := h.Store.Member(context.Background(), beta, ed.ID); err != nil || !m.Disabled || m.Role != quire.RoleEdit {
			t.Fatalf("a turned-off member after the link: %+v %v", m, err)
		}

		// A revoked link refuses, on the page and on the button.
		fay := h.newUser(t, "fay@acme.test", "Fay Acme", quire.RoleRead)
		cf := h.client(t, h.signIn(t, fay))
		revoked := newInvite(t, acc, beta, quire.RoleRead)
		if err := acc.RevokeInvite(context.Background(), beta, revoked); err != nil {
			t.Fatal(err)
		}
		for _, send := range []func() (int, string, string){
			func() (int, string, string) { return h.get(t, cf, "/app/join/"+revoked) },
			func() (int, string, string) { return h.postForm(t, cf, "/app/join/"+revoked+"/accept", nil) },
		} {
			if code, _, body := send(); code != http.StatusNotFound || !strings.Contains(body, "this invite link is not valid") {
				t.Fatalf("revoked link: %d\n%s", code, body)
			}
		}
		// A link of an organization that turned invite links off refuses
		// too, even opened before.
		open := newInvite(t, acc, beta, quire.RoleRead)
		if code, _, _ := h.get(t, cf, "/app/join/"+open); code != http.StatusOK {
			t.Fatalf("open link: %d", code)
		}
		off := false
		if _, err := h.Svc.UpdateOrganization(context.Background(), beta, quire.OrganizationUpdate{InviteLinks: &off}); err != nil {
			t.Fatal(err)
		}
		if code, _, body := h.postForm(t, cf, "/app/join/"+open+"/accept", nil); code != http.StatusNotFound || !strings.Contains(body, "invite links are turned off") {
			t.Fatalf("links turned off: %d\n%s", code, body)
		}
		if _, ok := h.roleIn(t, beta, fay); ok {
			t.Error("a link that cannot be used made a member")
		}
	}, accs.option())
}

// TestJoinInviteSignedOut checks that a signed-out person is offered
// both the sign-up form and a sign-in that comes back to the link, and
// then joins with the account they have.
func TestJoinInviteSignedOut(t *testing.T) {
	var accs accountsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		acc := accs.of(h)
		beta := secondOrg(t, h)
		inv := newInvite(t, acc, beta, "")
		setPassword(t, acc, "ada@acme.test", "ada's long password")

		c := h.client(t, nil)
		code, _, body := h.get(t, c, "/app/join/"+inv)
		signIn := "/app/sign-in?next=" + url.QueryEscape("/app/join/"+inv)
		if code != http.StatusOK || !strings.Contains(body, "Create account</button>") ||
			!strings.Contains(body, `Already have an account? <a href="`+signIn+`">Sign in</a>`) {
			t.Fatalf("join page signed out: %d\n%s", code, body)
		}
		code, _, body = h.get(t, c, signIn)
		if code != http.StatusOK || !strings.Contains(body, `<input type="hidden" name="next" value="/app/join/`+inv+`">`) {
			t.Fatalf("sign-in page: %d\n%s", code, body)
		}
		code, loc, _ := h.postForm(t, c, "/app/sign-in", url.Values{"email": {"ada@acme.test"}, "password": {"ada's long password"},
			"next": {"/app/join/" + inv}})
		if code != http.StatusSeeOther || loc != "/app/join/"+inv {
			t.Fatalf("sign in: %d %q", code, loc)
		}
		if code, _, body := h.get(t, c, loc); code != http.StatusOK || !strings.Contains(body, ">Join Beta Works as Guest</button>") {
			t.Fatalf("back on the link: %d\n%s", code, body)
		}
		if code, loc, _ := h.postForm(t, c, "/app/join/"+inv+"/accept", nil); code != http.StatusSeeOther || loc != "/app/o/"+beta {
			t.Fatalf("join: %d %q", code, loc)
		}
		if role, ok := h.roleIn(t, beta, h.Admin); !ok || role != "" {
			t.Fatalf("after joining: role %q, member %v", role, ok)
		}
		// Signing up again with the same email still says to sign in.
		code, _, body = h.postForm(t, h.client(t, nil), "/app/join/"+newInvite(t, acc, h.Org, quire.RoleRead), url.Values{
			"name": {"Ada Again"}, "email": {"ada@acme.test"}, "password": {"another long password"}, "confirm": {"another long password"}})
		if code != http.StatusBadRequest || !strings.Contains(body, "has an account already") {
			t.Errorf("sign-up with a taken email: %d", code)
		}
	}, accs.option())
}
