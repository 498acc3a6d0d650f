package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"quire/internal/service"
)

// walkLogo is the site logo of the walk-through, an SVG the test serves.
const walkLogo = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32"><rect width="120" height="32" rx="6" fill="#c0392b"/></svg>`

// TestAdminWalkthroughBrowser is an organization admin's first day, in
// a real browser: connect a space to a Git repository and import it, put
// the space in a site with two sections and a share link, set the
// primary color and the logo while the preview beside the form shows
// them, publish, open the share link in a second browser with no
// session, install an integration whose configuration has a required
// field, and read its events. Every screen is shot at desktop and phone
// widths in both themes.
func TestAdminWalkthroughBrowser(t *testing.T) {
	var ints integrationsOf
	h := newHarness(t, "sqlite", withSites(), ints.option())
	ctx := context.Background()
	handbook, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	guides, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Guides"})
	if err != nil {
		t.Fatal(err)
	}
	name := publishConfiguredIntegration(t, h)
	repo, head := servedRepo(t, docsRepo())
	logos := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		_, _ = w.Write([]byte(walkLogo))
	}))
	t.Cleanup(logos.Close)
	logo := logos.URL + "/logo.svg"

	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	// text is the main part's text, "" while the page is between
	// documents.
	text := func() string {
		got, err := b.TryJS(`document.querySelector("main").innerText`)
		if err != nil {
			return ""
		}
		return got
	}

	// Git Sync: connect the space and import the repository.
	b.Open(h.URL+"/app/s/"+handbook.Space.ID+"/~/manage", http.StatusOK)
	b.Click("link", "Git Sync")
	b.H1("Git Sync")
	b.Fill("textbox", "Repository URL", repo)
	b.Fill("textbox", "Branch", "master")
	b.Fill("textbox", "Credentials", gitUser+":"+gitPassword)
	b.Click("button", "Import from Git")
	b.WaitFor(`document.querySelector('[role="status"]') && document.querySelector('[role="status"]').textContent.includes("Import from Git queued")`)
	for deadline := time.Now().Add(time.Minute); strings.Contains(text(), "Running") || !strings.Contains(text(), "Succeeded"); {
		if time.Now().After(deadline) {
			t.Fatalf("the import did not succeed:\n%s", text())
		}
		time.Sleep(100 * time.Millisecond)
		b.Click("link", "Refresh")
		b.H1("Git Sync")
	}
	if !strings.Contains(text(), head) {
		t.Errorf("the Git Sync page does not show the imported commit %s", head)
	}
	b.ShootViews("walk-gitsync", "main h1")
	b.Open(h.URL+"/app/s/"+handbook.Space.ID, http.StatusOK)
	if !b.Has("link", "Guide") {
		t.Error("the imported space has no page Guide")
	}

	// A site of the space, with a second section and a share link.
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.Click("link", "Sites")
	b.H1("Sites")
	b.ShootViews("walk-sites", "main h1")
	b.Fill("textbox", "Title", "Docs portal")
	b.Click("checkbox", "Handbook")
	b.Click("button", "Create site")
	waitSiteNotice(b, "Site created.")
	b.Fill("combobox", "Space it publishes", guides.Space.ID)
	b.Click("button", "Add section")
	waitSiteNotice(b, "Section added.")
	if got := b.JS(`String(document.querySelectorAll("li[data-holds=space]").length)`); got != "2" {
		t.Fatalf("the site has %s sections, want 2", got)
	}
	b.Fill("combobox", "Visibility", "share-link")
	b.Click("button", "Save settings")
	b.WaitFor(`document.querySelector("main [role=status]") !== null`)
	b.Fill("textbox", "Name", "Partners")
	b.Click("button", "Create share link")
	waitSiteNotice(b, "Share link created.")
	var share string
	if err := json.Unmarshal([]byte(b.JS(`JSON.stringify(([...document.querySelectorAll("main input")].find(i => i.value.includes("/~share/")) || {}).value || "")`)), &share); err != nil || share == "" {
		t.Fatalf("no share link to copy: %q %v", share, err)
	}
	b.ShootViews("walk-site", "main h1")

	// The primary color and the logo, watched in the preview, in a new
	// window of the admin's (a browser's run is bounded).
	siteURL := b.JS(`location.href`)
	b = newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Open(siteURL, http.StatusOK)
	b.Click("link", "Customize")
	b.H1("Customize Docs portal")
	b.Fill("textbox", "Primary color (light)", "#c0392b")
	b.Fill("textbox", "Header logo (light)", logo)
	q, _ := json.Marshal(logo)
	b.WaitFor(`(function(){const d = document.querySelector('iframe[title="Preview"]').contentDocument;
		return !!d && !!d.querySelector('img[src=` + strings.ReplaceAll(string(q), `'`, `\'`) + `]') && d.documentElement.outerHTML.toLowerCase().includes("#c0392b")})()`)
	b.Click("button", "Save customization")
	b.WaitFor(`document.querySelector('[role="status"]') && document.querySelector('[role="status"]').textContent.includes("customization was saved")`)
	b.ShootViews("walk-customize", `iframe[title="Preview"]`)

	// Publish, then read the site through the share link with no session.
	b.Open(h.URL+"/app/o/"+h.Org+"/sites", http.StatusOK)
	b.Click("link", "Docs portal")
	b.Click("button", "Publish")
	waitSiteNotice(b, "Site published.")
	reader := newBrowser(t)
	reader.Open(share, http.StatusOK)
	page := reader.JS(`document.body.innerText`)
	for _, want := range []string{"Welcome", "Start here.", "Guides"} {
		if !strings.Contains(page, want) {
			t.Errorf("the site through its share link does not show %q:\n%s", want, page)
		}
	}
	if reader.JS(`String(!!document.querySelector('img[src=`+strings.ReplaceAll(string(q), `'`, `\'`)+`]'))`) != "true" {
		t.Error("the published site has no logo")
	}
	reader.ShootViews("walk-shared-site", "main")
	// With no logo of its own for the dark theme, the site shows the
	// light one there too.
	reader.Theme("dark")
	if got := reader.JS(`getComputedStyle(document.querySelector("img.logo")).display`); got == "none" {
		t.Error("in the dark theme the site shows no logo")
	}

	// An integration with a required field, then its events, in a new
	// window of the admin's (a browser's run is bounded).
	b = newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.Click("link", "Integrations")
	b.H1("Integrations")
	b.Click("link", "Release Notes")
	b.H1("Release Notes")
	b.Click("button", "Install Release Notes")
	b.H1("Configure Release Notes")
	if b.JS(`String([...document.querySelectorAll("input[required]")].some(i => [...i.labels].some(l => l.textContent.includes("API key"))))`) != "true" {
		t.Error("the configuration form does not require the API key")
	}
	b.Fill("textbox", "API key (required)", "k-123")
	b.Click("button", "Save configuration")
	b.H1("Release Notes")
	b.Click("link", "Choose spaces and sites")
	b.H1("Spaces and sites of Release Notes")
	b.Click("radio", "Only the spaces checked below")
	b.Click("checkbox", "Handbook")
	b.Click("button", "Save")
	b.H1("Release Notes")
	b.ShootViews("walk-integration", "main h1")
	waitEvents(t, ints.of(h), h, name, 1)
	b.Click("link", "Events")
	b.H1("Events of Release Notes")
	if !b.Has("table", "Events") || !strings.Contains(text(), "space_installation_setup") {
		t.Errorf("the events page lists no event:\n%s", text())
	}
	b.ShootViews("walk-integration-events", "main h1")
}
