package app

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// siteDone redirects to the site's page with the notice of done.
func siteDone(w http.ResponseWriter, r *http.Request, done string) error {
	http.Redirect(w, r, sitePath(r, done), http.StatusSeeOther)
	return nil
}

// refusedOnSite draws the site's page again when err is about a field
// of form; it returns err otherwise, nil after a redirect to done.
func (a *App) refusedOnSite(w http.ResponseWriter, r *http.Request, form, done string, err error) error {
	if st, ok := siteFormState(form, err); ok {
		return a.drawSite(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	return siteDone(w, r, done)
}

// updateSite saves the site's settings form: its title and visibility.
func (a *App) updateSite(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	var upd quire.SiteUpdate
	title, err := textField(r, "title", "title", maxSiteTitle, true)
	if err == nil {
		upd.Title = &title
		v := quire.Visibility(r.PostFormValue("visibility"))
		switch v {
		case quire.VisibilityPublic, quire.VisibilityUnlisted, quire.VisibilityShareLink, quire.VisibilityVisitorAuth:
			upd.Visibility = &v
		default:
			err = quire.Invalid("visibility", "choose one of the listed visibilities")
		}
	}
	if err == nil {
		_, err = sites.UpdateSite(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"), upd, nil)
	}
	return a.refusedOnSite(w, r, "settings", "site-saved", err)
}

// switchOnSite turns something of the site on or off (its publishing,
// a share link): set makes the change and says the state reached, and
// the site's page follows with the notice onDone or offDone.
func (a *App) switchOnSite(w http.ResponseWriter, r *http.Request, set func(*service.Sites) (bool, error), onDone, offDone string) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	on, err := set(sites)
	if err != nil {
		return err
	}
	if on {
		return siteDone(w, r, onDone)
	}
	return siteDone(w, r, offDone)
}

// publishSite publishes the site, or unpublishes it when published is
// false.
func (a *App) publishSite(published bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		return a.switchOnSite(w, r, func(sites *service.Sites) (bool, error) {
			_, err := sites.PublishSite(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"), published)
			return published, err
		}, "published", "unpublished")
	}
}

// siteToConfirm loads the site of the request for an action that needs
// the form's confirmation. Without it, it draws the page asking for it,
// made by ask, and returns no site.
func (a *App) siteToConfirm(w http.ResponseWriter, r *http.Request, ask func(*quire.Site) confirmView) (*service.Sites, *quire.Site, error) {
	sites, err := a.sitesService()
	if err != nil {
		return nil, nil, err
	}
	orgID := r.PathValue("organizationId")
	site, err := sites.Site(r.Context(), orgID, r.PathValue("siteId"))
	if err != nil {
		return nil, nil, err
	}
	if r.PostFormValue("confirm") != "yes" {
		return nil, nil, a.drawConfirm(w, r, orgID, ask(site))
	}
	return sites, site, nil
}

// deleteSite deletes the site once confirmed, then goes back to the list
// of sites; without the confirmation it draws the page asking for it.
func (a *App) deleteSite(w http.ResponseWriter, r *http.Request) error {
	sites, site, err := a.siteToConfirm(w, r, func(site *quire.Site) confirmView {
		return confirmView{Section: "sites", Heading: "Delete the site “" + site.Title + "”?",
			Text:   "Its sections, section groups, site spaces and share links are deleted, and readers no longer reach it. The spaces it publishes stay.",
			Button: "Delete site", Back: siteAppPath(site), Danger: true}
	})
	if site == nil || err != nil {
		return err
	}
	ctx, orgID := r.Context(), r.PathValue("organizationId")
	ok, err := sites.DeleteSite(ctx, orgID, site.ID)
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("site")
	}
	http.Redirect(w, r, "/app/o/"+url.PathEscape(orgID)+"/sites?done=site-deleted", http.StatusSeeOther)
	return nil
}

// createShareLink makes a share link with the name given.
func (a *App) createShareLink(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	name, err := textField(r, "name", "name", maxShareName, true)
	if err == nil {
		_, _, err = sites.CreateSiteShareLink(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"), name)
	}
	return a.refusedOnSite(w, r, "link-new", "link-created", err)
}

// setShareLinkActive turns a share link on (active=on) or off
// (active=off).
func (a *App) setShareLinkActive(w http.ResponseWriter, r *http.Request) error {
	return a.switchOnSite(w, r, func(sites *service.Sites) (bool, error) {
		var active bool
		switch r.PostFormValue("active") {
		case "on":
			active = true
		case "off":
		default:
			return false, quire.Invalid("active", "must be on or off")
		}
		_, _, err := sites.UpdateSiteShareLink(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"),
			r.PathValue("shareLinkId"), quire.SiteShareLinkUpdate{Active: &active})
		return active, err
	}, "link-on", "link-off")
}

// deleteShareLink deletes a share link: its address opens nothing from
// then on.
func (a *App) deleteShareLink(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ok, err := sites.DeleteSiteShareLink(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("shareLinkId"))
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("share link")
	}
	return siteDone(w, r, "link-deleted")
}

// updateVisitorAuth saves the fallback URL of the site's visitor
// authentication; empty removes it. The backend stays the site's own.
func (a *App) updateVisitorAuth(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	fallback, err := textField(r, "fallback_url", "fallbackURL", maxFallbackURL, false)
	if err == nil && fallback != "" {
		u, perr := url.Parse(fallback)
		if perr != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.ContainsAny(fallback, " \t\n") {
			err = quire.Invalid("fallbackURL", "must be an absolute http or https URL")
		}
	}
	if err == nil {
		_, err = sites.UpdateSitePublishingAuth(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"),
			service.SitePublishingAuthChange{Backend: quire.VisitorAuthCustom, FallbackURL: &fallback})
	}
	return a.refusedOnSite(w, r, "auth", "auth-saved", err)
}

// regenerateSiteKey replaces the key signing the site's visitor tokens
// once confirmed; without the confirmation it draws the page asking for
// it.
func (a *App) regenerateSiteKey(w http.ResponseWriter, r *http.Request) error {
	sites, site, err := a.siteToConfirm(w, r, func(site *quire.Site) confirmView {
		return confirmView{Section: "sites", Heading: "Make a new signing key for “" + site.Title + "”?",
			Text:   "Visitor tokens signed with the current key stop opening the site at once. Give the new key to whatever signs your visitors in.",
			Button: "Make a new key", Back: siteAppPath(site) + "#site-auth"}
	})
	if site == nil || err != nil {
		return err
	}
	ctx, orgID := r.Context(), r.PathValue("organizationId")
	if _, err := sites.RegenerateSitePublishingAuth(ctx, orgID, site.ID); err != nil {
		return err
	}
	return siteDone(w, r, "key-regenerated")
}
