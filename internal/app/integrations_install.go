package app

import (
	"net/http"
	"net/url"

	"quire/internal/service"
)

// installIntegration installs an integration in the organization, as
// the API's install does, then goes to its configuration when it
// declares one, else to its page.
func (a *App) installIntegration(w http.ResponseWriter, r *http.Request) error {
	ints, err := a.integrationsService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	in, _, err := ints.Install(r.Context(), userFrom(r.Context()), r.PathValue("integrationName"), orgID)
	if err != nil {
		return err
	}
	dest := integrationPath(orgID, in.Name)
	if parseConfigSchema(in.Manifest.Configurations.Account) != nil {
		dest += "/configuration"
	}
	http.Redirect(w, r, dest+"?done=installed", http.StatusSeeOther)
	return nil
}

// installed returns the installation of the page's integration in the
// page's organization; an integration not installed there is not found.
func (a *App) installed(r *http.Request) (*service.Integrations, *service.InstalledIntegration, error) {
	ints, err := a.integrationsService()
	if err != nil {
		return nil, nil, err
	}
	ii, err := ints.InstallationIn(r.Context(), userFrom(r.Context()), r.PathValue("integrationName"), r.PathValue("organizationId"))
	if err != nil {
		return nil, nil, err
	}
	return ints, ii, nil
}

// uninstallForm asks to confirm an uninstall.
func (a *App) uninstallForm(w http.ResponseWriter, r *http.Request) error {
	ints, ii, err := a.installed(r)
	if err != nil {
		return err
	}
	return a.drawUninstall(w, r, ints, ii)
}

// drawUninstall draws the confirmation of an uninstall.
func (a *App) drawUninstall(w http.ResponseWriter, r *http.Request, ints *service.Integrations, ii *service.InstalledIntegration) error {
	orgID, in := ii.Installation.OrgID, ii.Integration
	return a.drawConfirm(w, r, orgID, confirmView{Title: "Uninstall " + in.Manifest.Title, Section: "integrations",
		Heading: "Uninstall " + in.Manifest.Title + "?", TitleRow: true, Icon: integrationIcon(ints, in),
		Text:   "It stops covering the organization’s spaces and sites, and its configuration, here and on each space and site, is deleted. Installing it again starts over.",
		Button: "Uninstall", Action: integrationPath(orgID, in.Name, "uninstall"), Back: integrationPath(orgID, in.Name), Danger: true})
}

// uninstallIntegration removes the integration's installation from the
// organization, with its space and site installations, once confirmed;
// without the confirmation it asks for it.
func (a *App) uninstallIntegration(w http.ResponseWriter, r *http.Request) error {
	ints, ii, err := a.installed(r)
	if err != nil {
		return err
	}
	if r.PostFormValue("confirm") != "yes" {
		return a.drawUninstall(w, r, ints, ii)
	}
	if _, err := ints.Uninstall(r.Context(), userFrom(r.Context()), ii.Integration.Name, ii.Installation.ID); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/o/"+url.PathEscape(ii.Installation.OrgID)+"/integrations?done=uninstalled", http.StatusSeeOther)
	return nil
}
