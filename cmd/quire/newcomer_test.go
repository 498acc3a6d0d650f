package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"quire/internal/testutil"
)

// setupLinkRE finds the setup link quire serve prints on first start.
var setupLinkRE = regexp.MustCompile(`set the admin password at (http://\S+)`)

// TestReadmeBrowserFirstSteps follows the README's first steps in the
// browser as a newcomer does: quire serve in an empty directory, the setup
// link from its output, a password, a space, an invite link with the Edit
// role, and a second person who signs up through it and lands in the
// organization with that role.
func TestReadmeBrowserFirstSteps(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	steps := section(string(readme), "### In the browser")
	for _, want := range []string{"set the admin password at", "/app/setup/", "Invite links", "/app/sign-in"} {
		if !strings.Contains(steps, want) {
			t.Fatalf("the README's browser steps no longer say %q", want)
		}
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	logs := serveIn(t, bin, t.TempDir(), append(readmeEnv(addr), asCommandEnv+"=1"), addr)
	var link string
	for deadline := time.Now().Add(10 * time.Second); link == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := setupLinkRE.FindStringSubmatch(readLog(logs)); m != nil {
			link = m[1]
		}
	}
	if link == "" {
		t.Fatalf("quire serve printed no setup link:\n%s", readLog(logs))
	}

	b := testutil.NewBrowserPage(t)
	b.Open(link, http.StatusOK)
	b.H1("Set your password")
	b.Shoot("newcomer-setup.png")
	b.Fill("textbox", "New password", "correct horse battery")
	b.Fill("textbox", "Repeat the password", "correct horse battery")
	b.Click("button", "Save password and sign in")
	b.WaitFor(`location.pathname.startsWith("/app/o/")`)
	org := strings.TrimPrefix(b.JS("location.pathname"), "/app/o/")

	b.Fill("textbox", "New space", "Handbook")
	b.Click("button", "Create space")
	b.WaitFor(`[...document.querySelectorAll("#sidebar a")].some(a => a.textContent.trim() === "Handbook")`)

	b.Open("http://"+addr+"/app/o/"+org, http.StatusOK)
	b.Click("link", "Invite links")
	b.WaitFor(`location.pathname.endsWith("/invites")`)
	b.H1("Invite links")
	b.Fill("combobox", "Role", "edit")
	b.Click("button", "Create invite link")
	b.WaitFor(`document.querySelector('input[aria-label="Invite link for Edit"]')`)
	invite := b.JS(`document.querySelector('input[aria-label="Invite link for Edit"]').value`)
	b.Shoot("newcomer-invites.png")

	b.Forget()
	b.Open(invite, http.StatusOK)
	if h := b.JS(`document.querySelector("main h1").textContent`); !strings.HasPrefix(h, "Join ") {
		t.Fatalf("the invite link opened %q", h)
	}
	b.Fill("textbox", "Name", "Bea Newcomer")
	b.Fill("textbox", "Email", "bea@example.test")
	b.Fill("textbox", "Password", "another long passphrase")
	b.Fill("textbox", "Repeat the password", "another long passphrase")
	b.Click("button", "Create account")
	b.WaitFor(`location.pathname === "/app/o/` + org + `"`)
	if !b.Has("DisclosureTriangle", "Account: Bea Newcomer") {
		t.Fatal("after signing up, Bea is not the one signed in")
	}
	b.Open("http://"+addr+"/app/o/"+org+"/members", http.StatusOK)
	row := b.JS(`[...document.querySelectorAll("tr")].map(r => r.innerText).find(t => t.includes("bea@example.test")) || ""`)
	if !strings.Contains(row, "Edit") {
		t.Fatalf("Bea's row in the members list: %q, want the Edit role of the invite link", row)
	}
	b.Shoot("newcomer-members.png")
	// The server's own sites and OpenAPI areas stand behind
	// the app's pages of them.
	for _, area := range []string{"sites", "openapi"} {
		b.Open("http://"+addr+"/app/o/"+org+"/"+area, http.StatusOK)
	}
}
