package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/web"
)

// TestAccountBrowser drives the account page in a real browser: a token
// created with a name is shown once, then listed by its name only, and
// once revoked the API refuses it; the sessions of two browsers are
// listed, this one marked, and the other is signed out; an expired
// session sends the browser to sign-in. Screenshots at desktop and phone
// widths in both themes.
func TestAccountBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	ctx := context.Background()
	open := func(ua string) *http.Cookie {
		secret, expires, err := h.Svc.OpenSession(ctx, h.Admin.ID, service.SessionOrigin{Method: quire.SessionPassword,
			UserAgent: ua, Address: "192.0.2.10"})
		if err != nil {
			t.Fatal(err)
		}
		return web.SessionCookieFor(secret, expires, false)
	}
	other := h.client(t, open("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"))
	mine := open("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")
	b := newBrowser(t)
	b.SetCookie(h.URL, mine.Name, mine.Value)
	b.Open(h.URL+"/app/account", http.StatusOK)
	b.H1("Account settings")
	for _, c := range []struct{ role, name string }{
		{"heading", "Profile"}, {"heading", "Password"}, {"link", "Change your password"}, {"heading", "Sessions"},
		{"heading", "API tokens"}, {"textbox", "Display name"}, {"button", "Sign out everywhere else"},
		{"button", "Sign out Safari on iPhone, last seen Just now"},
	} {
		if !b.Has(c.role, c.name) {
			t.Errorf("no %s named %q", c.role, c.name)
		}
	}
	if n := b.JS(`String(document.querySelectorAll(".badge").length)`); n != "1" || !strings.Contains(b.JS(`document.querySelector(".badge").closest("tr").textContent`), "Firefox on Linux") {
		t.Errorf("this device is not the one marked (%s)", n)
	}

	// A token: shown once, with a copy button.
	if !b.Has("textbox", "Token name") {
		t.Fatal("no textbox named Token name")
	}
	// Typed into the control its label names.
	b.JS(`[...document.querySelectorAll("label")].find(l => l.textContent === "Token name").control.value = "CI deploys"; ""`)
	b.Click("button", "Create token")
	b.WaitFor(`!!document.getElementById("new-token")`)
	token := b.JS(`document.getElementById("new-token").value`)
	if !strings.HasPrefix(token, "qt_") || !b.Has("button", "Copy token") {
		t.Fatalf("new token %q", token)
	}
	if h.apiStatus(t, token) != http.StatusOK {
		t.Fatal("the API refuses the new token")
	}
	b.Shoot("app-account-token-desktop-light.png")
	b.Do(chromedp.Navigate(h.URL + "/app/account"))
	b.WaitFor(`location.search === "" && !document.getElementById("new-token")`)
	if b.Has("textbox", "New token") || strings.Contains(b.JS("document.body.innerHTML"), token) {
		t.Fatal("the token is shown again")
	}
	if !b.Has("button", "Revoke token CI deploys") {
		t.Fatal("the token is not listed by its name")
	}
	b.ShootViews("app-account", "main h1")

	// Revoking asks first; then the API refuses the token.
	b.JS(`window.confirm = function (m) { window.asked = m; return true; }; ""`)
	b.Click("button", "Revoke token CI deploys")
	b.WaitFor(`location.search.indexOf("done=token-revoked") >= 0`)
	if b.Has("button", "Revoke token CI deploys") {
		t.Fatal("a revoked token is still listed")
	}
	if got := h.apiStatus(t, token); got != http.StatusUnauthorized {
		t.Fatalf("the API answered %d to a revoked token", got)
	}

	// The other browser's session, signed out from here.
	if code, _, _ := h.get(t, other, "/app/account"); code != http.StatusOK {
		t.Fatalf("the other browser: %d", code)
	}
	b.JS(`window.confirm = function () { return true; }; ""`)
	b.Click("button", "Sign out Safari on iPhone, last seen Just now")
	b.WaitFor(`location.search.indexOf("done=session") >= 0`)
	if b.Has("button", "Sign out Safari on iPhone, last seen Just now") {
		t.Fatal("the signed-out session is still listed")
	}
	if code, loc, _ := h.get(t, other, "/app/account"); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in") {
		t.Fatalf("the signed-out browser: %d %s", code, loc)
	}

	// Past its idle lifetime, the session sends the browser to sign in.
	h.Clock.Advance(service.DefaultSessionIdle + time.Minute)
	b.Do(chromedp.Navigate(h.URL + "/app/account"))
	b.WaitFor(`location.pathname === "/app/sign-in"`)
	if got := b.JS("location.search"); got != "?next="+url.QueryEscape("/app/account") {
		t.Errorf("sent to sign-in with %q", got)
	}
	if b.Cookie(h.URL, web.SessionCookie) != "" {
		t.Error("the expired session's cookie was kept")
	}
}
