package app_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"

	"quire/internal/oidctest"
	"quire/internal/samltest"
	"quire/internal/testutil"
)

// TestOIDCSignInBrowser signs a new person in through the issuer in a
// real browser: from the single sign-on page, through the issuer, into
// the organization their email domain lets them join. It takes the
// screenshots of the page's SSO options at desktop and phone widths in
// both themes.
func TestOIDCSignInBrowser(t *testing.T) {
	is := oidctest.New(t)
	h := newHarness(t, "sqlite", withSSO(is))
	h.allowDomain(t, "acme.test")
	is.SignIn(oidctest.Person{Subject: "bob", Email: "bob@acme.test", EmailVerified: true, Name: "Bob Builder"})
	b := newBrowser(t)
	page := h.URL + "/app/sign-in/sso?next=" + url.QueryEscape("/app/o/"+h.Org)
	b.Open(page, http.StatusOK)
	b.H1("Sign in with single sign-on")
	for _, c := range []struct{ role, name string }{
		{"link", "Sign in with Test IdP"}, {"textbox", "Work email"},
		{"button", "Sign in with your organization’s SSO"}, {"heading", "Single sign-on"},
	} {
		if !b.Has(c.role, c.name) {
			t.Errorf("no %s named %q", c.role, c.name)
		}
	}
	b.ShootViews("app-sso", "main h1")

	b.Click("link", "Sign in with Test IdP")
	waitPath(t, b, "/app/o/"+h.Org)
	b.H1("Acme Docs")
	if !b.Has("DisclosureTriangle", "Account: Bob Builder") {
		t.Fatal("signed in, but the account menu does not name Bob")
	}
	if loc := b.JS("location.pathname"); loc != "/app/o/"+h.Org {
		t.Fatalf("landed on %s", loc)
	}
}

// TestSAMLSignInBrowser signs a member in through their organization's
// SAML identity provider, found from their email: the session the
// assertion consumer service opens is the app's, and the browser lands
// in the app.
func TestSAMLSignInBrowser(t *testing.T) {
	is := oidctest.New(t)
	h := newHarness(t, "sqlite", withSSO(is))
	idp := samltest.New(t)
	idp.Encrypt(false)
	h.samlProvider(t, idp)
	h.allowDomain(t, "acme.test")
	idp.As("carol@acme.test", "Carol Chen")
	b := newBrowser(t)
	b.Open(h.URL+"/app/sign-in/sso", http.StatusOK)
	b.Do(chromedp.SendKeys("Work email", "carol@acme.test", testutil.ByRole("textbox", "Work email")))
	b.Click("button", "Sign in with your organization’s SSO")
	waitPath(t, b, "/app/sign-in/sso")
	b.Do(chromedp.WaitVisible("Continue with Acme Okta (Acme Docs)", testutil.ByRole("link", "Continue with Acme Okta (Acme Docs)")))
	b.Shoot("app-sso-choice-desktop-light.png")
	b.Click("link", "Continue with Acme Okta (Acme Docs)")
	// The identity provider's page posts the answer back on its own.
	waitPath(t, b, "/app/o/"+h.Org)
	b.H1("Acme Docs")
	if !b.Has("DisclosureTriangle", "Account: Carol Chen") {
		t.Fatal("signed in, but the account menu does not name Carol")
	}
	if loc := b.JS("location.pathname"); loc != "/app/o/"+h.Org {
		t.Fatalf("landed on %s", loc)
	}
}
