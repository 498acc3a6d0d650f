package app

import (
	"net/http"
	"net/url"

	"quire/internal/quire"
	"quire/internal/service"
)

// integrationsService returns the integrations service, or says the
// server has none.
func (a *App) integrationsService() (*service.Integrations, error) {
	if a.cfg.Integrations == nil {
		return nil, notAvailable("Integrations are")
	}
	return a.cfg.Integrations, nil
}

// integrationData is what an integration's page shows: what it is and
// does, who published it, and, on its page in an organization, its
// installation there or the form that installs it.
type integrationData struct {
	Integration *quire.Integration
	// Publisher is the title of the organization that published it.
	Publisher string
	Updated   string
	// Icon is the address of its icon, "" for none.
	Icon string
	// Base is its page in the organization of the page, "" on the
	// integration's own page.
	Base string
	// Installed is its installation in the organization of the page, nil
	// on the integration's own page and while it is not installed there.
	Installed *installedData
	// Notice confirms the change the page was redirected after.
	Notice string
}

// installedData is an installation in an organization.
type installedData struct {
	Installation *quire.IntegrationInstallation
	Created      string
	// Status words the installation's status.
	Status string
	// AllSpaces and AllSites say the installation covers every space
	// (site) of the organization; Spaces and Sites list those it was
	// installed on.
	AllSpaces, AllSites bool
	Spaces              []linkItem
	Sites               []linkItem
	// OnSpaces and OnSites say the integration installs on that kind of
	// content.
	OnSpaces, OnSites bool
	// Configurable says the integration declares a configuration of the
	// installation.
	Configurable bool
	// Events says the caller speaks for the integration, whose events
	// only they read.
	Events bool
}

// linkItem is a titled link of a list; Config, when set, is the page of
// its own configuration.
type linkItem struct {
	Title  string
	URL    string
	Config string
}

// integrationPath is the address of an integration's page in an
// organization, or of one of its subpages.
func integrationPath(orgID, name string, rest ...string) string {
	p := "/app/o/" + url.PathEscape(orgID) + "/integrations/" + url.PathEscape(name)
	for _, s := range rest {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// integrationNotice returns the confirmation of a change an integration's
// pages were redirected after.
func integrationNotice(r *http.Request) string {
	switch r.URL.Query().Get("done") {
	case "installed":
		return "The integration was installed."
	case "configured":
		return "The configuration was saved."
	case "covered":
		return "The spaces and sites it covers were saved."
	case "uninstalled":
		return "The integration was uninstalled."
	}
	return ""
}

// statusText words an installation's status.
func statusText(status string) string {
	switch status {
	case quire.InstallationActive:
		return "Active"
	case quire.InstallationPending:
		return "Pending: its configuration misses what the integration requires"
	case quire.InstallationPaused:
		return "Paused"
	}
	return status
}

// integrationPage shows an integration to a signed-in person who may see
// it: public and unlisted ones to everyone, private ones to the members of
// the organization that published it.
func (a *App) integrationPage(w http.ResponseWriter, r *http.Request) error {
	ints, err := a.integrationsService()
	if err != nil {
		return err
	}
	in, err := ints.Get(r.Context(), userFrom(r.Context()), r.PathValue("integrationName"))
	if err != nil {
		return err
	}
	d, err := a.integrationData(r, ints, in)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, "")
	if err != nil {
		return err
	}
	sh.Title, sh.Section = in.Manifest.Title, "integrations"
	return a.render(w, r, http.StatusOK, "integration", sh, d)
}

// installedIntegrationPage shows an integration in an organization to
// its admins: installed, with its status, what it covers and the pages
// that configure it, list its events and uninstall it; else the form
// that installs it.
func (a *App) installedIntegrationPage(w http.ResponseWriter, r *http.Request) error {
	ints, err := a.integrationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	u := userFrom(ctx)
	orgID, name := r.PathValue("organizationId"), r.PathValue("integrationName")
	in, err := ints.Get(ctx, u, name)
	if err != nil {
		return err
	}
	d, err := a.integrationData(r, ints, in)
	if err != nil {
		return err
	}
	d.Base, d.Notice = integrationPath(orgID, in.Name), integrationNotice(r)
	ii, err := ints.InstallationIn(ctx, u, name, orgID)
	switch {
	case err == nil:
		d.Installed = installedOf(ii)
		d.Installed.Events = ints.Admin(ctx, u, in)
		d.Integration = ii.Integration
	case !quire.IsNotFound(err):
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = in.Manifest.Title, "integrations"
	return a.render(w, r, http.StatusOK, "integration", sh, d)
}

// installedOf describes an installation with what it covers.
func installedOf(ii *service.InstalledIntegration) *installedData {
	in, inst := ii.Integration, ii.Installation
	m := in.Manifest
	d := &installedData{Installation: inst, Created: formatDate(inst.CreatedAt), Status: statusText(inst.Status),
		AllSpaces: inst.SpaceSelection == quire.SelectionAll, AllSites: inst.SiteSelection == quire.SelectionAll,
		OnSpaces: m.Target != string(quire.OnSite), OnSites: m.Target != string(quire.OnSpace),
		Configurable: parseConfigSchema(m.Configurations.Account) != nil}
	spaceConfig := parseConfigSchema(m.Configurations.Space) != nil
	for _, sp := range ii.Spaces {
		it := linkItem{Title: sp.Title, URL: "/app/s/" + url.PathEscape(sp.ID)}
		if spaceConfig {
			it.Config = integrationPath(inst.OrgID, in.Name, "spaces", sp.ID)
		}
		d.Spaces = append(d.Spaces, it)
	}
	siteConfig := parseConfigSchema(m.Configurations.Site) != nil
	for _, s := range ii.Sites {
		it := linkItem{Title: s.Title, URL: siteAppPath(s)}
		if siteConfig {
			it.Config = integrationPath(inst.OrgID, in.Name, "sites", s.ID)
		}
		d.Sites = append(d.Sites, it)
	}
	return d
}

// integrationData gathers what both pages of an integration show.
func (a *App) integrationData(r *http.Request, ints *service.Integrations, in *quire.Integration) (*integrationData, error) {
	d := &integrationData{Integration: in, Updated: formatDate(in.UpdatedAt)}
	org, err := ints.Owner(r.Context(), in)
	switch {
	case err == nil:
		d.Publisher = org.Title
	case !quire.IsNotFound(err):
		return nil, err
	}
	d.Icon = integrationIcon(ints, in)
	return d, nil
}

// integrationIcon is the address of an integration's icon, "" for none.
func integrationIcon(ints *service.Integrations, in *quire.Integration) string {
	if icon := ints.Images(in).Icon; icon != "" {
		return "/integrations/" + url.PathEscape(in.Name) + "/images/" + url.PathEscape(icon)
	}
	return ""
}
