package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/web"
)

// TestOrgSSOTurnOff has an admin signed in through the organization's
// own identity provider turn off single sign-on from the SSO settings
// page: a confirmation page names what goes, nothing changes until it is
// confirmed, then every SAML provider is deleted and single sign-on is
// no longer required, each change in the audit log, with a notice; a
// member is refused.
func TestOrgSSOTurnOff(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := service.WithActor(context.Background(), h.Admin)
		saml := service.NewSAML(h.Svc)
		var ids []string
		for _, label := range []string{"Okta", "Entra"} {
			p, err := saml.CreateProvider(ctx, h.Org, service.SAMLProviderInput{Label: &label})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		// Single sign-on required: the admin is an SSO member signed in
		// through the organization's provider.
		on := true
		if _, err := h.Svc.UpdateOrganization(ctx, h.Org, quire.OrganizationUpdate{SSO: &on}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Store.SetMemberSSO(ctx, h.Org, h.Admin.ID, true); err != nil {
			t.Fatal(err)
		}
		secret, expires, err := h.Svc.OpenSession(ctx, h.Admin.ID, service.SessionOrigin{Method: quire.SessionSAML, ProviderID: ids[0], OrgID: h.Org})
		if err != nil {
			t.Fatal(err)
		}
		admin := h.client(t, web.SessionCookieFor(secret, expires, false))
		path := "/app/o/" + h.Org + "/settings/sso"

		code, _, body := h.get(t, admin, path)
		if code != http.StatusOK || !strings.Contains(body, `<h2 id="sso-off-heading">Danger zone</h2>`) ||
			!strings.Contains(body, `action="`+path+`/turn-off"`) || !strings.Contains(body, "Turn off single sign-on…</button>") {
			t.Fatalf("SSO page without the danger zone: %d\n%s", code, problemText(body))
		}

		// Without confirming: the page asking, naming what goes.
		for _, form := range []url.Values{{}, {"confirm": {"no"}}} {
			code, _, body = h.postForm(t, admin, path+"/turn-off", form)
			if code != http.StatusOK || !strings.Contains(body, "<h1>Turn off single sign-on?</h1>") ||
				!strings.Contains(body, "The SAML provider “Okta” is deleted") || !strings.Contains(body, "The SAML provider “Entra” is deleted") ||
				!strings.Contains(body, "Single sign-on is no longer required") || !strings.Contains(body, `name="confirm" value="yes"`) {
				t.Fatalf("turn off without confirming: %d\n%s", code, problemText(body))
			}
		}
		if l, err := saml.Providers(ctx, h.Org, quire.Page{}); err != nil || len(l.Items) != 2 {
			t.Fatalf("providers before the confirmation: %v %v", l, err)
		}
		if o, _ := h.Svc.Organization(ctx, h.Org); !o.SSO {
			t.Fatal("single sign-on stopped being required before the confirmation")
		}

		// A member may not.
		member := h.client(t, h.signIn(t, h.newUser(t, "eve@acme.test", "Eve Editor", quire.RoleEdit)))
		if code, _, _ := h.postForm(t, member, path+"/turn-off", url.Values{"confirm": {"yes"}}); code != http.StatusForbidden {
			t.Errorf("a member's turn off: %d, want 403", code)
		}

		code, loc, body := h.postForm(t, admin, path+"/turn-off", url.Values{"confirm": {"yes"}})
		if code != http.StatusSeeOther || loc != path+"?done=sso-off" {
			t.Fatalf("turn off: %d to %q\n%s", code, loc, problemText(body))
		}
		if l, err := saml.Providers(ctx, h.Org, quire.Page{}); err != nil || len(l.Items) != 0 {
			t.Errorf("providers after turning off: %v %v", l, err)
		}
		if o, _ := h.Svc.Organization(ctx, h.Org); o.SSO {
			t.Error("single sign-on is still required")
		}
		code, _, body = h.get(t, admin, loc)
		if code != http.StatusOK || !strings.Contains(body, "Single sign-on was turned off: the SAML providers were deleted") ||
			!strings.Contains(body, "No SAML identity provider yet.") || strings.Contains(body, "Danger zone") {
			t.Fatalf("SSO page after turning off: %d\n%s", code, problemText(body))
		}

		l, err := h.Svc.AuditEvents(ctx, h.Admin, h.Org, quire.AuditFilter{}, quire.Page{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range l.Items {
			got = append(got, string(e.Action)+" "+e.TargetID+" by "+e.ActorID+" via "+e.Details["via"])
		}
		want := []string{
			"sso.enforced_changed " + h.Org + " by " + h.Admin.ID + " via sso_turned_off",
			"saml.provider_deleted " + ids[1] + " by " + h.Admin.ID + " via sso_turned_off",
			"saml.provider_deleted " + ids[0] + " by " + h.Admin.ID + " via sso_turned_off",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			// Providers are deleted oldest first; ids of one millisecond
			// may list either way.
			want[1], want[2] = want[2], want[1]
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("audit events:\n%s", strings.Join(got, "\n"))
			}
		}

		// With nothing left to turn off, the page says so and offers no
		// button.
		code, _, body = h.postForm(t, admin, path+"/turn-off", url.Values{})
		if code != http.StatusOK || !strings.Contains(body, "there is nothing to turn off") || strings.Contains(body, "btn-danger") {
			t.Errorf("turn off again: %d\n%s", code, problemText(body))
		}
	}, withSAMLSettings())
}
