package app_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestOrgSettingsBrowser has an admin rename the organization from its
// settings page in a real browser, then opens the audit log from the
// navigation; screenshots of both pages.
func TestOrgSettingsBrowser(t *testing.T) {
	h := newHarness(t, "sqlite", withSAMLSettings())
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.Click("link", "Settings")
	b.H1("Organization settings")
	b.ShootViews("app-org-settings", "main h1")
	b.Fill("textbox", "Title", "Acme Handbooks")
	b.Click("button", "Save settings")
	b.H1("Organization settings")
	if got := orgFacts(t, h); !strings.Contains(got, `title="Acme Handbooks"`) {
		t.Errorf("after saving: %s", got)
	}
	b.Click("link", "Audit log")
	b.H1("Audit log")
	b.ShootViews("app-audit", "main h1")
}
