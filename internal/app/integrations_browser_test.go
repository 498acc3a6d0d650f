package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"quire/internal/service"
)

// TestIntegrationsBrowser has an admin find an integration from the
// organization's navigation in a real browser, install it, fill in the
// required field of its configuration and save it, choose the space it
// covers, and open its events and one of them; screenshots of the list,
// the configuration form, the coverage form, the events and an event.
func TestIntegrationsBrowser(t *testing.T) {
	var ints integrationsOf
	h := newHarness(t, "sqlite", ints.option())
	name := publishConfiguredIntegration(t, h)
	if _, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Handbook"}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.Click("link", "Integrations")
	b.H1("Integrations")
	if !b.Has("list", "Integrations") || !b.Has("searchbox", "Name or title") {
		t.Error("the list has no integrations or no search box")
	}
	b.ShootViews("app-integrations", "main h1")

	b.Click("link", "Release Notes")
	b.H1("Release Notes")
	b.Click("button", "Install Release Notes")
	b.H1("Configure Release Notes")
	for _, f := range [][2]string{{"textbox", "API key (required)"}, {"combobox", "Channel (required)"},
		{"checkbox", "Notify on merge"}, {"textbox", "Batch size"}, {"textbox", "Test note"}} {
		if !b.Has(f[0], f[1]) {
			t.Errorf("the configuration form has no %s named %q", f[0], f[1])
		}
	}
	b.ShootViews("app-integration-config", "main h1")
	b.Fill("textbox", "API key (required)", "k-123")
	b.Fill("textbox", "Batch size", "ten")
	b.Click("button", "Save configuration")
	if got := formErrorText(b); got != "Batch size: must be a number." {
		t.Errorf("refused configuration says %q", got)
	}
	// One view: another theme would load the page again, without the
	// refused form.
	b.Shoot("app-integration-config-refused-desktop-light.png")
	b.Fill("textbox", "Batch size", "10")
	b.Click("button", "Save configuration")
	b.H1("Release Notes")
	if !strings.Contains(b.JS(`(document.querySelector("[role=status]") || {}).textContent || ""`), "The configuration was saved.") {
		t.Error("no notice after saving the configuration")
	}
	if facts := integrationFacts(t, h, name); !strings.Contains(facts, `status=active`) || !strings.Contains(facts, `"apiKey":"k-123"`) {
		t.Errorf("configuration saved: %s", facts)
	}

	b.Click("link", "Choose spaces and sites")
	b.H1("Spaces and sites of Release Notes")
	b.ShootViews("app-integration-coverage", "main h1")
	b.Click("radio", "Only the spaces checked below")
	b.Click("checkbox", "Handbook")
	b.Click("button", "Save")
	b.H1("Release Notes")
	if !b.Has("link", "Configure on this space") {
		t.Error("the covered space has no link to its configuration")
	}

	waitEvents(t, ints.of(h), h, name, 3)
	b.Click("link", "Events")
	b.H1("Events of Release Notes")
	if !b.Has("table", "Events") {
		t.Error("no table of events")
	}
	b.ShootViews("app-integration-events", "main h1")
	b.Click("link", "space_installation_setup")
	b.H1("Event space_installation_setup")
	if !b.Has("heading", "Request") || !b.Has("table", "Log of the last delivery") {
		t.Error("the event shows no request or no log")
	}
	b.ShootViews("app-integration-event", "main h1")
}
