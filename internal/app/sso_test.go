package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/oidctest"
	"quire/internal/quire"
	"quire/internal/samltest"
	"quire/internal/service"
	"quire/internal/web"
)

// withSSO offers sign-in through the test issuer, named "Test IdP", and
// the organizations' SAML providers.
func withSSO(is *oidctest.Issuer) harnessOption {
	return func(h *harness, cfg *httpapi.Config, acfg *app.Config) {
		o, err := service.NewOIDC(h.Svc, service.OIDCConfig{Issuer: is.URL, ClientID: is.ClientID,
			ClientSecret: is.ClientSecret, Name: "Test IdP", RedirectURL: h.URL + "/app/sign-in/oidc/callback"})
		if err != nil {
			panic(err)
		}
		acfg.OIDC, acfg.SAML = o, cfg.SAML
	}
}

// allowDomain lets people of domain join the organization as editors.
func (h *harness) allowDomain(t *testing.T, domain string) {
	t.Helper()
	domains, role := []string{domain}, quire.RoleEdit
	if _, err := h.Store.UpdateOrganization(context.Background(), h.Org,
		quire.OrganizationUpdate{EmailDomains: &domains, DefaultRole: &role}); err != nil {
		t.Fatal(err)
	}
}

// getURL sends a request with the client and follows one redirect to
// another server by hand, returning the Location it answers.
func getURL(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

// TestOIDCSignInFlow signs in through the issuer over HTTP: the state
// cookie, the session cookie, landing where the sign-in started, and the
// refusals drawn as pages.
func TestOIDCSignInFlow(t *testing.T) {
	t.Parallel()
	is := oidctest.New(t)
	forEachEngine(t, func(t *testing.T, h *harness) {
		is.SignIn(oidctest.Person{Subject: "ada", Email: "ada@acme.test", EmailVerified: true, Name: "Ada"})
		c := h.client(t, nil)
		status, loc := getURL(t, c, h.URL+"/app/sign-in/oidc?next="+url.QueryEscape("/app/o/"+h.Org))
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, is.URL+"/authorize?") {
			t.Fatalf("start: %d %s", status, loc)
		}
		status, back := getURL(t, c, loc)
		if status != http.StatusFound || !strings.HasPrefix(back, h.URL+"/app/sign-in/oidc/callback?") {
			t.Fatalf("issuer: %d %s", status, back)
		}
		// Another browser bringing the same answer is refused.
		code, _, body := h.get(t, h.client(t, nil), strings.TrimPrefix(back, h.URL))
		if code != http.StatusForbidden || !strings.Contains(body, "started in another browser") {
			t.Fatalf("callback in another browser: %d\n%s", code, body)
		}
		status, next := getURL(t, c, back)
		if status != http.StatusSeeOther || next != "/app/o/"+h.Org {
			t.Fatalf("callback: %d %s", status, next)
		}
		code, _, body = h.get(t, c, next)
		if code != http.StatusOK || !strings.Contains(body, "Account: Ada Admin") {
			t.Fatalf("landing: %d\n%s", code, body)
		}
		u, _ := url.Parse(h.URL)
		var secret string
		for _, ck := range c.Jar.Cookies(u) {
			if ck.Name == web.SessionCookie {
				secret = ck.Value
			}
		}
		if _, ss, err := h.Svc.AuthenticateSession(context.Background(), secret); err != nil || ss.OrgID != "" {
			t.Fatalf("session: %+v, %v", ss, err)
		}
		// The same answer again is refused: its state was used.
		code, _, body = h.get(t, c, strings.TrimPrefix(back, h.URL))
		if code != http.StatusForbidden || !strings.Contains(body, "Sign-in failed") {
			t.Fatalf("replayed callback: %d\n%s", code, body)
		}

		// Where to go after must be a page of the app.
		for _, bad := range []string{"https://evil.test/", "//evil.test/app/", "/v1/user"} {
			if code, _, _ := h.get(t, h.client(t, nil), "/app/sign-in/oidc?next="+url.QueryEscape(bad)); code != http.StatusBadRequest {
				t.Errorf("next %q: %d, want 400", bad, code)
			}
		}
	}, withSSO(is))
}

// TestOIDCRefusesStranger checks the page a person without an account or
// a way in sees.
func TestOIDCRefusesStranger(t *testing.T) {
	t.Parallel()
	is := oidctest.New(t)
	h := newHarness(t, "sqlite", withSSO(is))
	is.SignIn(oidctest.Person{Subject: "x", Email: "eve@nowhere.test", EmailVerified: true})
	c := h.client(t, nil)
	_, loc := getURL(t, c, h.URL+"/app/sign-in/oidc")
	_, back := getURL(t, c, loc)
	code, _, body := h.get(t, c, strings.TrimPrefix(back, h.URL))
	if code != http.StatusForbidden || !strings.Contains(body, "no account for eve@nowhere.test") ||
		!strings.Contains(body, "Back to sign-in") {
		t.Fatalf("stranger: %d\n%s", code, body)
	}
	if n, _ := h.Store.CountUsers(context.Background()); n != 1 {
		t.Fatalf("%d users, want the admin alone", n)
	}
}

// TestSSOWithoutConfiguration checks that a server without an issuer
// answers its OpenID Connect addresses as pages that do not exist.
func TestSSOWithoutConfiguration(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	for _, p := range []string{"/app/sign-in/oidc", "/app/sign-in/oidc/callback?code=x&state=y"} {
		if code, _, _ := h.get(t, h.client(t, nil), p); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
	code, _, body := h.get(t, h.client(t, nil), "/app/sign-in/sso")
	if code != http.StatusOK || strings.Contains(body, "Test IdP") {
		t.Errorf("sso page: %d\n%s", code, body)
	}
}

// TestSSOFindsOrganizationProvider checks the email form: one provider
// starts its sign-in, coming back to the app; no provider or a bad
// email says so beside the form.
func TestSSOFindsOrganizationProvider(t *testing.T) {
	t.Parallel()
	is := oidctest.New(t)
	h := newHarness(t, "sqlite", withSSO(is))
	idp := samltest.New(t)
	idp.Encrypt(false)
	p := h.samlProvider(t, idp)
	h.allowDomain(t, "acme.test")
	c := h.client(t, nil)
	code, _, body := h.postForm(t, c, "/app/sign-in/sso", url.Values{"email": {"bob@Acme.test"}, "next": {"/app/o/" + h.Org}})
	want := `href="/sso/saml/` + p + `/login?redirect=` + url.QueryEscape("/app/o/"+h.Org) + `"`
	if code != http.StatusOK || !strings.Contains(body, want) || !strings.Contains(body, "Continue with Acme Okta (Acme Docs)") {
		t.Fatalf("found: %d, want a link %s\n%s", code, want, body)
	}
	code, _, body = h.postForm(t, c, "/app/sign-in/sso", url.Values{"email": {"bob@other.test"}})
	if code != http.StatusNotFound || !strings.Contains(body, "No organization here signs in people of other.test") {
		t.Fatalf("unknown domain: %d\n%s", code, body)
	}
	code, _, body = h.postForm(t, c, "/app/sign-in/sso", url.Values{"email": {"bob"}})
	if code != http.StatusBadRequest || !strings.Contains(body, `aria-invalid="true"`) {
		t.Fatalf("bad email: %d\n%s", code, body)
	}
}

// samlProvider makes the test identity provider an active provider of
// the organization and returns its id.
func (h *harness) samlProvider(t *testing.T, idp *samltest.IdP) string {
	t.Helper()
	label, entity, sso, cert := "Acme Okta", idp.MetadataURL, idp.SSOURL, idp.CertificatePEM
	p, err := service.NewSAML(h.Svc).CreateProvider(context.Background(), h.Org, service.SAMLProviderInput{
		Label: &label, EntityID: &entity, Certificate: &cert, SSOURL: &sso})
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}
