package app_test

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"quire/internal/quire"
)

// TestJoinInviteBrowser follows an invite link of another organization
// as a member of the first one: signed out, the link's page leads to
// sign-in and back, and the join button lands in the organization.
func TestJoinInviteBrowser(t *testing.T) {
	var accs accountsOf
	h := newHarness(t, "sqlite", accs.option())
	acc := accs.of(h)
	beta := secondOrg(t, h)
	inv := newInvite(t, acc, beta, quire.RoleEdit)
	ed := h.newUser(t, "ed@acme.test", "Ed Acme", quire.RoleRead)
	setPassword(t, acc, "ed@acme.test", "ed's reading passphrase")

	b := newBrowser(t)
	b.Open(h.URL+"/app/join/"+inv, http.StatusOK)
	b.H1("Join Beta Works")
	b.Click("link", "Sign in")
	b.H1("Sign in to Quire")
	b.Fill("textbox", "Email", "ed@acme.test")
	b.Fill("textbox", "Password", "ed's reading passphrase")
	b.Click("button", "Sign in")
	b.WaitFor(`!!document.querySelector('form[action$="/accept"]')`)
	b.H1("Join Beta Works")
	b.ShootViews("app-join-signed-in", "main h1")
	b.Click("button", "Join Beta Works as Edit")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`nav#sidebar`)))
	b.H1("Beta Works")
	if role, ok := h.roleIn(t, beta, ed); !ok || role != quire.RoleEdit {
		t.Fatalf("after joining: role %q, member %v", role, ok)
	}
}
