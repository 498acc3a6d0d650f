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
// does, who published it, and, on the page of its installation in an
// organization, what the installation covers.
type integrationData struct {
	Integration *quire.Integration
	// Publisher is the title of the organization that published it.
	Publisher string
	Updated   string
	// Icon is the address of its icon, "" for none.
	Icon string
	// Installed is its installation in the organization of the page, nil
	// on the integration's own page.
	Installed *installedData
}

// installedData is an installation in an organization.
type installedData struct {
	Installation *quire.IntegrationInstallation
	Created      string
	// AllSpaces and AllSites say the installation covers every space
	// (site) of the organization; else Spaces and Sites list those it
	// was installed on.
	AllSpaces, AllSites bool
	Spaces              []linkItem
	Sites               []linkItem
}

// linkItem is a titled link of a list.
type linkItem struct {
	Title string
	URL   string
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

// installedIntegrationPage shows an integration installed in an
// organization, with the spaces and sites the installation covers, to
// those the API lets read the installation.
func (a *App) installedIntegrationPage(w http.ResponseWriter, r *http.Request) error {
	ints, err := a.integrationsService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	ii, err := ints.InstallationIn(r.Context(), userFrom(r.Context()), r.PathValue("integrationName"), orgID)
	if err != nil {
		return err
	}
	d, err := a.integrationData(r, ints, ii.Integration)
	if err != nil {
		return err
	}
	inst := ii.Installation
	d.Installed = &installedData{Installation: inst, Created: formatDate(inst.CreatedAt),
		AllSpaces: inst.SpaceSelection == quire.SelectionAll, AllSites: inst.SiteSelection == quire.SelectionAll}
	for _, sp := range ii.Spaces {
		d.Installed.Spaces = append(d.Installed.Spaces, linkItem{Title: sp.Title, URL: "/app/s/" + url.PathEscape(sp.ID)})
	}
	for _, s := range ii.Sites {
		d.Installed.Sites = append(d.Installed.Sites, linkItem{Title: s.Title, URL: siteAppPath(s)})
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = ii.Integration.Manifest.Title, "integrations"
	return a.render(w, r, http.StatusOK, "integration", sh, d)
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
	if icon := ints.Images(in).Icon; icon != "" {
		d.Icon = "/integrations/" + url.PathEscape(in.Name) + "/images/" + url.PathEscape(icon)
	}
	return d, nil
}
