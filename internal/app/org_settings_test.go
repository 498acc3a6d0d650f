package app_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/samltest"
	"quire/internal/service"
)

// withSAMLSettings gives the app the API's SAML area, as the server
// does, so that the settings pages manage SAML providers.
func withSAMLSettings() harnessOption {
	return func(_ *harness, cfg *httpapi.Config, acfg *app.Config) { acfg.SAML = cfg.SAML }
}

// orgFacts describes the stored settings of the harness's organization.
func orgFacts(t *testing.T, h *harness) string {
	t.Helper()
	o, err := h.Svc.Organization(context.Background(), h.Org)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("title=%q logo=%q role=%q domains=%v invites=%t sso=%t rules=%+v",
		o.Title, o.LogoURL, o.DefaultRole, o.EmailDomains, o.InviteLinks, o.SSO, o.MergeRules)
}

// TestOrgSettingsSave has an admin save the general settings and the
// merge rules, and finds them stored and shown; the navigation offers
// Settings to the admin only.
func TestOrgSettingsSave(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		admin := h.client(t, h.signIn(t, h.Admin))
		path := "/app/o/" + h.Org + "/settings"
		code, _, body := h.get(t, admin, path)
		if code != http.StatusOK || !strings.Contains(body, "<h1>Organization settings</h1>") {
			t.Fatalf("settings page: %d\n%s", code, problemText(body))
		}
		if !strings.Contains(body, `href="/app/o/`+h.Org+`/settings" aria-current="page">Settings</a>`) {
			t.Error("the organization's navigation has no current Settings link for the admin")
		}
		code, loc, body := h.postForm(t, admin, path, url.Values{"title": {"Acme Handbook"}, "logo": {"https://acme.test/logo.png"},
			"default_role": {"edit"}, "email_domains": {"Acme.test\n\n docs.acme.test \n"}})
		if code != http.StatusSeeOther || loc != path+"?done=settings" {
			t.Fatalf("save: %d to %q\n%s", code, loc, problemText(body))
		}
		want := `title="Acme Handbook" logo="https://acme.test/logo.png" role="edit" domains=[acme.test docs.acme.test] invites=false sso=false rules={Type:none Rules:[]}`
		if got := orgFacts(t, h); got != want {
			t.Errorf("stored:\n%s\nwant:\n%s", got, want)
		}
		_, _, body = h.get(t, admin, loc)
		for _, s := range []string{"The organization’s settings were saved.", `value="Acme Handbook"`, `<option value="edit" selected>`,
			"acme.test\ndocs.acme.test</textarea>"} {
			if !strings.Contains(body, s) {
				t.Errorf("the saved settings page lacks %q", s)
			}
		}
		if strings.Contains(body, `name="invite_links" checked`) {
			t.Error("invite links still shown as on")
		}

		mpath := path + "/merge-rules"
		code, loc, body = h.postForm(t, admin, mpath, url.Values{"rules": {"require_at_least_one_review", "require_change_request_subject"}})
		if code != http.StatusSeeOther || loc != path+"?done=merge-rules" {
			t.Fatalf("merge rules: %d to %q\n%s", code, loc, problemText(body))
		}
		o, err := h.Svc.Organization(context.Background(), h.Org)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(o.MergeRules); got != "{rules [{require_at_least_one_review [] } {require_change_request_subject [] }]}" {
			t.Errorf("stored merge rules: %s", got)
		}
		_, _, body = h.get(t, admin, loc)
		if !regexp.MustCompile(`value="require_at_least_one_review" checked`).MatchString(body) ||
			strings.Contains(body, `value="require_change_request_description" checked`) {
			t.Error("the page does not show the stored merge rules")
		}
		code, _, _ = h.postForm(t, admin, mpath, url.Values{})
		if code != http.StatusSeeOther {
			t.Fatalf("clear merge rules: %d", code)
		}
		if o, _ = h.Svc.Organization(context.Background(), h.Org); o.MergeRules.Type != quire.MergeRulesNone {
			t.Errorf("no rule checked stored %v", o.MergeRules)
		}

		member := h.client(t, h.signIn(t, h.newUser(t, "eve@acme.test", "Eve Editor", quire.RoleEdit)))
		before := orgFacts(t, h)
		if code, _, _ := h.get(t, member, path); code != http.StatusForbidden {
			t.Errorf("a member's GET of the settings: %d, want 403", code)
		}
		if code, _, _ := h.postForm(t, member, path, url.Values{"title": {"Taken over"}}); code != http.StatusForbidden {
			t.Errorf("a member's save: %d, want 403", code)
		}
		if after := orgFacts(t, h); after != before {
			t.Errorf("a member's save changed the settings:\n%s", after)
		}
		_, _, body = h.get(t, member, "/app/o/"+h.Org)
		if strings.Contains(body, `/settings"`) {
			t.Error("a member's navigation offers Settings")
		}

		// Requiring single sign-on is stored; it ends the password
		// sessions, the admin's own included, so it comes last.
		form := url.Values{"title": {"Acme Handbook"}, "default_role": {"edit"}, "sso": {"on"}, "invite_links": {"on"}}
		if code, _, body := h.postForm(t, admin, path, form); code != http.StatusSeeOther {
			t.Fatalf("require SSO: %d\n%s", code, problemText(body))
		}
		if o, _ := h.Svc.Organization(context.Background(), h.Org); !o.SSO || !o.InviteLinks {
			t.Errorf("SSO required %t, invite links %t: want both", o.SSO, o.InviteLinks)
		}
	})
}

// TestOrgSettingsMalformed sends bad settings: each draws the form again
// (422) naming the field, keeps what was typed, and stores nothing.
func TestOrgSettingsMalformed(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		admin := h.client(t, h.signIn(t, h.Admin))
		path := "/app/o/" + h.Org + "/settings"
		before := orgFacts(t, h)
		good := func(over map[string]string) url.Values {
			v := url.Values{"title": {"Typed title"}, "logo": {""}, "default_role": {"read"}, "email_domains": {"typed.test"}, "invite_links": {"on"}}
			for k, s := range over {
				v.Set(k, s)
			}
			return v
		}
		for _, c := range []struct {
			form    url.Values
			says    string
			invalid string
			kept    string
		}{
			{good(map[string]string{"title": "  "}), "Title must not be empty.", `id="org-title" type="text" name="title" value="  "`, "typed.test</textarea>"},
			{good(map[string]string{"email_domains": "acme.test\nnot a domain"}), "Email domains &#34;not a domain&#34; is not a domain name.", `name="email_domains" rows="3" aria-describedby="org-domains-hint" aria-invalid="true"`, "acme.test\nnot a domain</textarea>"},
			{good(map[string]string{"default_role": "owner"}), "Default role choose one of the listed roles.", `name="default_role" aria-describedby="org-default-role-hint" aria-invalid="true"`, `value="Typed title"`},
			{good(map[string]string{"logo": "javascript:alert(1)"}), "Logo URL must be an absolute http or https URL.", `aria-invalid="true"`, `value="javascript:alert(1)"`},
		} {
			code, _, body := h.postForm(t, admin, path, c.form)
			if code != http.StatusUnprocessableEntity {
				t.Errorf("%v: %d, want 422\n%s", c.form, code, problemText(body))
				continue
			}
			for _, s := range []string{c.says, c.invalid, c.kept} {
				if !strings.Contains(body, s) {
					t.Errorf("%v: the page lacks %q\n%s", c.form, s, problemText(body))
				}
			}
		}
		code, _, body := h.postForm(t, admin, path+"/merge-rules", url.Values{"rules": {"require_at_least_one_review", "bogus"}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "Merge rules choose among the listed rules.") ||
			!strings.Contains(body, `value="require_at_least_one_review" checked`) {
			t.Errorf("unknown merge rule: %d\n%s", code, problemText(body))
		}
		if after := orgFacts(t, h); after != before {
			t.Errorf("refused forms changed the settings:\nbefore %s\nafter  %s", before, after)
		}
	})
}

// TestOrgSAMLProviders adds a SAML provider with the test identity
// provider's certificate and finds it listed with the service provider's
// addresses; a bad certificate is refused naming it; a change is saved;
// the delete asks for confirmation, then deletes.
func TestOrgSAMLProviders(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		idp := samltest.New(t)
		saml := service.NewSAML(h.Svc)
		admin := h.client(t, h.signIn(t, h.Admin))
		path := "/app/o/" + h.Org + "/settings/sso"
		code, _, body := h.get(t, admin, path)
		if code != http.StatusOK || !strings.Contains(body, "No SAML identity provider yet.") {
			t.Fatalf("SSO page: %d\n%s", code, problemText(body))
		}
		if !strings.Contains(body, "OpenID Connect</dt><dd>Off") {
			t.Error("the page does not say OpenID Connect is off")
		}

		form := url.Values{"label": {"Test IdP"}, "entity_id": {idp.MetadataURL}, "sso_url": {idp.SSOURL},
			"certificate": {"-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"}}
		code, _, body = h.postForm(t, admin, path, form)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "Certificate is not valid PEM.") ||
			!strings.Contains(body, `name="certificate" rows="8" aria-describedby="saml-cert-hint" aria-invalid="true"`) ||
			!strings.Contains(body, `value="`+idp.SSOURL+`"`) {
			t.Fatalf("bad certificate: %d\n%s", code, problemText(body))
		}
		l, err := saml.Providers(context.Background(), h.Org, quire.Page{Limit: 10})
		if err == nil && len(l.Items) != 0 {
			t.Fatalf("a refused provider was stored: %v", l.Items)
		}

		form.Set("certificate", idp.CertificatePEM)
		code, loc, body := h.postForm(t, admin, path, form)
		if code != http.StatusSeeOther || loc != path+"?done=saml-created" {
			t.Fatalf("add: %d to %q\n%s", code, loc, problemText(body))
		}
		_, _, body = h.get(t, admin, loc)
		m := regexp.MustCompile(`<a href="` + regexp.QuoteMeta(path) + `/([^"]+)">Test IdP</a> <span class="muted">Active`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("the provider is not listed as active\n%s", body)
		}
		id := m[1]
		sp := h.URL + "/sso/saml/" + id
		for _, s := range []string{"The SAML provider was added.",
			`<label for="sp-entity-` + id + `">Service provider entity ID (metadata URL)</label>`,
			`readonly value="` + sp + `/metadata"`, `readonly value="` + sp + `/acs"`, `readonly value="` + sp + `/login"`} {
			if !strings.Contains(body, s) {
				t.Errorf("the SSO page lacks %q", s)
			}
		}

		ppath := path + "/" + id
		code, _, body = h.get(t, admin, ppath)
		if code != http.StatusOK || !strings.Contains(html.UnescapeString(body), idp.CertificatePEM) {
			t.Fatalf("provider page: %d\n%s", code, problemText(body))
		}
		form.Set("label", "Renamed IdP")
		form.Set("certificate", "not a certificate")
		code, _, body = h.postForm(t, admin, ppath, form)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "Certificate is neither PEM") || !strings.Contains(body, `value="Renamed IdP"`) {
			t.Errorf("bad certificate on edit: %d\n%s", code, problemText(body))
		}
		form.Set("certificate", idp.CertificatePEM)
		code, loc, body = h.postForm(t, admin, ppath, form)
		if code != http.StatusSeeOther || loc != ppath+"?done=saml-updated" {
			t.Fatalf("edit: %d to %q\n%s", code, loc, problemText(body))
		}
		if p, err := saml.Provider(context.Background(), h.Org, id); err != nil || p.Label != "Renamed IdP" {
			t.Errorf("edited provider: %+v %v", p, err)
		}

		code, _, body = h.postForm(t, admin, ppath+"/delete", url.Values{})
		if code != http.StatusOK || !strings.Contains(body, "Delete the SAML provider “Renamed IdP”?") {
			t.Fatalf("delete without confirming: %d\n%s", code, problemText(body))
		}
		if _, err := saml.Provider(context.Background(), h.Org, id); err != nil {
			t.Fatalf("the provider is gone before the confirmation: %v", err)
		}
		code, loc, _ = h.postForm(t, admin, ppath+"/delete", url.Values{"confirm": {"yes"}})
		if code != http.StatusSeeOther || loc != path+"?done=saml-deleted" {
			t.Fatalf("delete: %d to %q", code, loc)
		}
		if _, err := saml.Provider(context.Background(), h.Org, id); !quire.IsNotFound(err) {
			t.Errorf("deleted provider: %v", err)
		}
		if code, _, _ := h.get(t, admin, ppath); code != http.StatusNotFound {
			t.Errorf("deleted provider's page: %d", code)
		}
	}, withSAMLSettings())
}
