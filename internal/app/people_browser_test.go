package app_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/testutil"
)

// choose picks an option of a select found by its accessible name.
func choose(b *testutil.BrowserPage, name, value string) {
	b.T.Helper()
	b.Do(chromedp.SetValue("combobox "+name, value, testutil.ByRole("combobox", name)))
}

// waitText waits until the page says text, after a form was sent.
func waitText(b *testutil.BrowserPage, text string) {
	b.T.Helper()
	expr := "document.readyState === 'complete' && document.body.innerText.includes(" + jsString(text) + ")"
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		// The page may be between documents: an error is a reason to
		// look again.
		if ok, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			// Let the DevTools side settle on the new document before
			// the accessibility tree is queried.
			b.Do(chromedp.WaitReady(chromedp.CSS("main h1")))
			time.Sleep(100 * time.Millisecond)
			return
		}
	}
	b.T.Fatalf("the page never said %q", text)
}

// jsString quotes a string for a JavaScript expression.
func jsString(s string) string { return "`" + s + "`" }

// TestPeopleBrowser walks an admin through the people pages in a real
// browser: a member's role changed, a team created with the member in
// it, a space shared with the team as editors; then a read member sees
// the members list with no controls.
func TestPeopleBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	ctx := context.Background()
	bob := h.newUser(t, "bob@acme.test", "Bob Builder", quire.RoleRead)
	rita := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
	sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook", Emoji: "📘"})
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)

	b.Open(h.URL+"/app/o/"+h.Org+"/members", http.StatusOK)
	b.H1("Members")
	choose(b, "Role of Bob Builder", "edit")
	b.Click("button", "Save role of Bob Builder")
	waitText(b, "The role was changed.")
	if m, err := h.Svc.Member(ctx, h.Org, bob.ID); err != nil || m.Role != quire.RoleEdit {
		t.Fatalf("bob's role: %v %v", m, err)
	}
	b.ShootViews("app-members", "main h1")

	b.Open(h.URL+"/app/o/"+h.Org+"/teams", http.StatusOK)
	b.Do(chromedp.SendKeys("textbox New team", "Writers", testutil.ByRole("textbox", "New team")))
	b.Click("button", "Create team")
	waitText(b, "The team was created.")
	b.H1("Writers")
	choose(b, "Add a member", bob.ID)
	b.Click("button", "Add to team")
	waitText(b, "The member was added to the team.")
	if !b.Has("button", "Remove Bob Builder from the team") {
		t.Fatal("bob is not listed in the team")
	}
	b.ShootViews("app-team", "main h1")
	teams, err := h.Svc.Teams(ctx, h.Org, quire.TeamFilter{}, quire.Page{})
	if err != nil || len(teams.Items) != 1 {
		t.Fatalf("teams: %+v %v", teams, err)
	}
	b.Open(h.URL+"/app/o/"+h.Org+"/teams", http.StatusOK)
	b.ShootViews("app-teams", "main h1")

	b.Open(h.URL+"/app/s/"+sp.Space.ID+"/~/sharing", http.StatusOK)
	b.H1("Sharing")
	choose(b, "Add a team", teams.Items[0].ID)
	choose(b, "Role for the team", "edit")
	b.Click("button", "Share with team")
	waitText(b, "Access was given.")
	grants, err := h.Svc.SpaceTeamGrants(ctx, sp.Space.ID, quire.Page{})
	if err != nil || len(grants.Items) != 1 || grants.Items[0].Role != quire.RoleEdit {
		t.Fatalf("the space's team grants: %+v %v", grants, err)
	}
	if !b.Has("combobox", "Role of Writers") {
		t.Fatal("the team is not listed on the sharing page")
	}
	b.ShootViews("app-sharing", "main h1")

	b.Forget()
	h.signInBrowser(t, b, rita)
	b.Open(h.URL+"/app/o/"+h.Org+"/members", http.StatusOK)
	b.H1("Members")
	if !b.Has("link", "Bob Builder") {
		t.Error("the read member does not see bob")
	}
	for _, c := range []struct{ role, name string }{
		{"combobox", "Role of Bob Builder"}, {"button", "Remove Bob Builder"}, {"button", "Disable Bob Builder"}, {"button", "Save role of Bob Builder"},
	} {
		if b.Has(c.role, c.name) {
			t.Errorf("the read member is offered the %s %q", c.role, c.name)
		}
	}
	b.Shoot("app-members-reader-desktop-light.png")
}
