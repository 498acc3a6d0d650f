package app

import (
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// createSite creates a site from the list's form: its title and the
// spaces it publishes, then opens its page. Bad input draws the list
// again naming the field, and no site is made.
func (a *App) createSite(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	in, err := siteCreateForm(r)
	var site *quire.Site
	if err == nil {
		site, err = sites.CreateSite(r.Context(), userFrom(r.Context()), orgID, in)
	}
	if st, ok := siteFormState("site-new", err); ok {
		return a.drawSites(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, siteAppPath(site)+"?done=site-created", http.StatusSeeOther)
	return nil
}

// siteCreateForm reads the creation form; the title is required here,
// where the API would name an untitled site.
func siteCreateForm(r *http.Request) (service.SiteCreate, error) {
	var in service.SiteCreate
	title, err := textField(r, "title", "title", maxSiteTitle, true)
	if err != nil {
		return in, err
	}
	in.Title = title
	spaces := r.PostForm["spaces"]
	if len(spaces) > maxSiteSpacesIn {
		return in, quire.Invalid("spaces", "choose at most %d spaces", maxSiteSpacesIn)
	}
	seen := map[string]bool{}
	for _, id := range spaces {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		in.Spaces = append(in.Spaces, id)
	}
	return in, nil
}
