package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"quire/internal/quire"
	"quire/internal/testutil"
)

// formErrorText is the text of the page's form-level error.
func formErrorText(b *testutil.BrowserPage) string {
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[role="alert"]`)))
	return strings.TrimSpace(b.JS(`document.querySelector('[role="alert"]').textContent`))
}

// TestAccountsBrowser walks the first admin's setup link to a password
// and a session, an invite link made by the admin and used in another
// browser context to sign up, and a wrong password answered as an
// unknown email is.
func TestAccountsBrowser(t *testing.T) {
	var accs accountsOf
	h := newHarness(t, "sqlite", accs.option())
	acc := accs.of(h)
	ctx := context.Background()
	link, err := acc.SetupLink(ctx, h.Admin.ID)
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t)
	b.Open(link, http.StatusOK)
	b.H1("Set your password")
	b.ShootViews("app-setup", "main h1")
	b.Fill("textbox", "New password", "ada's own passphrase")
	b.Fill("textbox", "Repeat the password", "ada's own passphrase")
	b.Click("button", "Save password and sign in")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`nav#sidebar`)))
	b.H1("Acme Docs")
	if !b.Has("DisclosureTriangle", "Account: Ada Admin") {
		t.Fatal("not signed in after setup")
	}
	// The link worked once.
	other := newBrowser(t)
	other.Open(link, http.StatusNotFound)

	// The admin makes an invite link for editors.
	if !b.Has("link", "Invite links") {
		t.Fatal("no invite links entry in the navigation")
	}
	b.Open(h.URL+"/app/o/"+h.Org+"/invites", http.StatusOK)
	b.H1("Invite links")
	b.Do(chromedp.SetValue("role", "edit", testutil.ByRole("combobox", "Role")))
	b.Click("button", "Create invite link")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`input[aria-label="Invite link for Edit"]`)))
	invite := b.JS(`document.querySelector('input[aria-label="Invite link for Edit"]').value`)
	if !strings.HasPrefix(invite, h.URL+"/app/join/") {
		t.Fatalf("invite link %q", invite)
	}
	if !b.Has("button", "Revoke invite link for Edit") || !b.Has("button", "Copy invite link for Edit") {
		t.Error("no revoke or copy button")
	}
	b.Shoot("app-invites-desktop-light.png")

	// Someone else signs up through it, and lands in the organization as an editor.
	other.Open(invite, http.StatusOK)
	other.H1("Join Acme Docs")
	other.ShootViews("app-join", "main h1")
	other.Fill("textbox", "Name", "Bea Editor")
	other.Fill("textbox", "Email", "bea@else.test")
	other.Fill("textbox", "Password", "qwertyuiop")
	other.Fill("textbox", "Repeat the password", "qwertyuiop")
	other.Click("button", "Create account")
	other.Do(chromedp.WaitVisible(chromedp.CSS(`#password-error`)))
	if msg := other.JS(`document.querySelector("#password-error").textContent`); !strings.Contains(msg, "most common passwords") {
		t.Errorf("weak password error %q", msg)
	}
	other.Fill("textbox", "Password", "bea's editing passphrase")
	other.Fill("textbox", "Repeat the password", "bea's editing passphrase")
	other.Click("button", "Create account")
	other.Do(chromedp.WaitVisible(chromedp.CSS(`nav#sidebar`)))
	other.H1("Acme Docs")
	bea, err := h.Store.UserByEmail(ctx, "bea@else.test")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := h.Store.Member(ctx, h.Org, bea.ID); err != nil || m.Role != quire.RoleEdit {
		t.Fatalf("member %+v, %v", m, err)
	}
	if !other.Has("DisclosureTriangle", "Account: Bea Editor") {
		t.Error("not signed in after joining")
	}

	// As a new visitor, a wrong password and an unknown email read the same.
	other.Forget()
	other.Open(h.URL+"/app/sign-in", http.StatusOK)
	other.H1("Sign in to Quire")
	other.ShootViews("app-signin", "main h1")
	other.Fill("textbox", "Email", "bea@else.test")
	other.Fill("textbox", "Password", "not bea's password")
	other.Click("button", "Sign in")
	wrong := formErrorText(other)
	other.Fill("textbox", "Email", "nobody@else.test")
	other.Fill("textbox", "Password", "not bea's password")
	other.Click("button", "Sign in")
	unknown := formErrorText(other)
	if wrong != unknown || wrong == "" {
		t.Errorf("wrong password %q, unknown email %q", wrong, unknown)
	}
	other.Shoot("app-signin-error-desktop-light.png")
	other.Fill("textbox", "Email", "bea@else.test")
	other.Fill("textbox", "Password", "bea's editing passphrase")
	other.Click("button", "Sign in")
	other.Do(chromedp.WaitVisible(chromedp.CSS(`nav#sidebar`)))
	other.H1("Acme Docs")
}
