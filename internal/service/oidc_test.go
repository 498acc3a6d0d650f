package service_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"quire/internal/oidctest"
	"quire/internal/quire"
	"quire/internal/service"
)

// oidcFixture is a bootstrapped service with an OIDC sign-in over a test
// issuer.
type oidcFixture struct {
	*service.Bootstrapped
	issuer *oidctest.Issuer
	oidc   *service.OIDC
}

func newOIDCFixture(t *testing.T) *oidcFixture {
	t.Helper()
	f := service.NewBootstrapped(t)
	is := oidctest.New(t)
	o, err := service.NewOIDC(f.Svc, service.OIDCConfig{Issuer: is.URL, ClientID: is.ClientID, ClientSecret: is.ClientSecret,
		Name: "Test IdP", RedirectURL: "https://quire.test/app/sign-in/oidc/callback"})
	if err != nil {
		t.Fatal(err)
	}
	return &oidcFixture{Bootstrapped: f, issuer: is, oidc: o}
}

// authorize starts a sign-in and has the issuer answer it, as a browser
// would: it returns the start and the answer the callback gets.
func (f *oidcFixture) authorize(t *testing.T, redirect string) (*service.OIDCStart, service.OIDCAnswer) {
	t.Helper()
	start, err := f.oidc.StartLogin(t.Context(), redirect)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(start.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize answered %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if !strings.HasPrefix(back.String(), "https://quire.test/app/sign-in/oidc/callback?") {
		t.Fatalf("sent back to %s", back)
	}
	q := back.Query()
	return start, service.OIDCAnswer{Code: q.Get("code"), State: q.Get("state"), CookieState: start.State}
}

// refused checks that a sign-in was refused as forbidden and created no
// account.
func (f *oidcFixture) refused(t *testing.T, login *service.OIDCLogin, err error, why string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: signed in %s", why, login.User.Email)
	}
	if quire.ErrorCode(err) != quire.EFORBIDDEN {
		t.Fatalf("%s: got %v, want forbidden", why, err)
	}
	if n, _ := f.Store.CountUsers(context.Background()); n != 1 {
		t.Fatalf("%s: %d users exist, want the admin alone", why, n)
	}
}

// TestOIDCSignsInAnExistingAccount checks the whole flow: PKCE, state,
// nonce and the ID token, for the account with the verified email.
func TestOIDCSignsInAnExistingAccount(t *testing.T) {
	t.Parallel()
	f := newOIDCFixture(t)
	f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "A@Example.com", EmailVerified: true, Name: "A"})
	start, in := f.authorize(t, "/app/")
	if u, _ := url.Parse(start.URL); u.Query().Get("code_challenge") == "" || u.Query().Get("nonce") == "" {
		t.Fatalf("authorization request without PKCE or nonce: %s", start.URL)
	}
	login, err := f.oidc.FinishLogin(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	if login.User.ID != f.Admin.ID || login.Redirect != "/app/" || len(login.Joined) != 0 {
		t.Fatalf("login = %+v, want the admin back at /app/", login)
	}
}

// TestOIDCRefusals checks each answer that must not sign anyone in.
func TestOIDCRefusals(t *testing.T) {
	t.Parallel()
	t.Run("state of another browser", func(t *testing.T) {
		f := newOIDCFixture(t)
		f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "a@example.com", EmailVerified: true})
		_, in := f.authorize(t, "/app/")
		other, _ := f.authorize(t, "/app/")
		in.CookieState = other.State
		login, err := f.oidc.FinishLogin(t.Context(), in)
		f.refused(t, login, err, "state not the browser's")
	})
	t.Run("state never started", func(t *testing.T) {
		f := newOIDCFixture(t)
		_, in := f.authorize(t, "/app/")
		in.State, in.CookieState = "forged", "forged"
		login, err := f.oidc.FinishLogin(t.Context(), in)
		f.refused(t, login, err, "unknown state")
	})
	t.Run("replayed code", func(t *testing.T) {
		f := newOIDCFixture(t)
		f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "a@example.com", EmailVerified: true})
		_, in := f.authorize(t, "/app/")
		if _, err := f.oidc.FinishLogin(t.Context(), in); err != nil {
			t.Fatal(err)
		}
		login, err := f.oidc.FinishLogin(t.Context(), in)
		f.refused(t, login, err, "the same callback twice")
		// The code carried into a sign-in started afresh: its PKCE
		// verifier and nonce are another's.
		next, _ := f.authorize(t, "/app/")
		login, err = f.oidc.FinishLogin(t.Context(), service.OIDCAnswer{Code: in.Code, State: next.State, CookieState: next.State})
		f.refused(t, login, err, "an old code with a new state")
	})
	t.Run("wrong audience", func(t *testing.T) {
		f := newOIDCFixture(t)
		f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "a@example.com", EmailVerified: true})
		f.issuer.Audience("another-client")
		_, in := f.authorize(t, "/app/")
		login, err := f.oidc.FinishLogin(t.Context(), in)
		f.refused(t, login, err, "token for another client")
	})
	t.Run("unverified email", func(t *testing.T) {
		f := newOIDCFixture(t)
		f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "a@example.com", EmailVerified: false})
		_, in := f.authorize(t, "/app/")
		login, err := f.oidc.FinishLogin(t.Context(), in)
		f.refused(t, login, err, "email not verified")
	})
	t.Run("expired token", func(t *testing.T) {
		f := newOIDCFixture(t)
		f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "a@example.com", EmailVerified: true})
		f.issuer.Lifetime(-time.Minute)
		_, in := f.authorize(t, "/app/")
		login, err := f.oidc.FinishLogin(t.Context(), in)
		f.refused(t, login, err, "expired ID token")
	})
	t.Run("no account and no way in", func(t *testing.T) {
		f := newOIDCFixture(t)
		f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "bob@elsewhere.org", EmailVerified: true})
		_, in := f.authorize(t, "/app/")
		login, err := f.oidc.FinishLogin(t.Context(), in)
		f.refused(t, login, err, "stranger")
		if !strings.Contains(err.Error(), "ask an admin") {
			t.Fatalf("message %q does not say what to do", err)
		}
	})
	t.Run("issuer refused", func(t *testing.T) {
		f := newOIDCFixture(t)
		start, _ := f.authorize(t, "/app/")
		login, err := f.oidc.FinishLogin(t.Context(), service.OIDCAnswer{Error: "access_denied", State: start.State, CookieState: start.State})
		f.refused(t, login, err, "issuer error")
	})
}

// TestOIDCJoinsByEmailDomain checks that a person without an account
// gets one when an organization allows their domain, and joins it with
// its default role; an organization requiring SSO is not joined.
func TestOIDCJoinsByEmailDomain(t *testing.T) {
	t.Parallel()
	f := newOIDCFixture(t)
	ctx := t.Context()
	domains := []string{"example.org"}
	role := quire.RoleEdit
	if _, err := f.Store.UpdateOrganization(ctx, f.Org, quire.OrganizationUpdate{EmailDomains: &domains, DefaultRole: &role}); err != nil {
		t.Fatal(err)
	}
	f.issuer.SignIn(oidctest.Person{Subject: "s", Email: "bob@example.org", EmailVerified: true, Name: "Bob"})
	_, in := f.authorize(t, "/app/")
	login, err := f.oidc.FinishLogin(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if login.User.Email != "bob@example.org" || login.User.DisplayName != "Bob" || len(login.Joined) != 1 || login.Joined[0] != f.Org {
		t.Fatalf("login = %+v", login)
	}
	m, err := f.Store.Member(ctx, f.Org, login.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Role != quire.RoleEdit || m.SSO {
		t.Fatalf("member = %+v, want an editor who is not an SSO member", m)
	}

	sso := true
	if _, err := f.Store.UpdateOrganization(ctx, f.Org, quire.OrganizationUpdate{SSO: &sso}); err != nil {
		t.Fatal(err)
	}
	f.issuer.SignIn(oidctest.Person{Subject: "t", Email: "cy@example.org", EmailVerified: true})
	_, in = f.authorize(t, "/app/")
	if login, err := f.oidc.FinishLogin(ctx, in); quire.ErrorCode(err) != quire.EFORBIDDEN {
		t.Fatalf("joined an organization requiring SSO: %+v, %v", login, err)
	}
}
