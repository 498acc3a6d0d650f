package app

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// maxCustomizeForm bounds the customization form's body, as the API
// bounds a request's.
const maxCustomizeForm = 1 << 20

// siteCustomizeData is what a site's customization page shows: the form
// beside a preview of the site.
type siteCustomizeData struct {
	Site *quire.Site
	// SiteSpace is the site space the preview opens on, nil on the
	// site's own page.
	SiteSpace *service.SiteSpaceView
	// SiteURL is the site's page in the app, Home the site's own
	// customization page, Action where the form saves, PreviewAction
	// where it is previewed, and Preview the preview's first address,
	// as saved.
	SiteURL, Home, Action, PreviewAction, Preview string
	// Path is the page of the site the preview shows, below the site.
	Path   string
	Groups []customizeGroup
	// Error is the refusal of the form, naming the control at fault.
	Error string
	// SiteSpaces lead to the page of each site space of the site.
	SiteSpaces []customizeSpaceLink
}

// customizeSpaceLink leads to the customization page of a site space.
type customizeSpaceLink struct {
	Title, URL string
	Current    bool
}

// customizePath is the customization page of a site, or of one of its
// site spaces when siteSpaceID is not "".
func customizePath(orgID, siteID, siteSpaceID string) string {
	p := "/app/o/" + url.PathEscape(orgID) + "/sites/" + url.PathEscape(siteID)
	if siteSpaceID != "" {
		p += "/spaces/" + url.PathEscape(siteSpaceID)
	}
	return p + "/customize"
}

// siteCustomize answers the customization page of a site, or of a site
// space: the settings as saved.
func (a *App) siteCustomize(w http.ResponseWriter, r *http.Request) error {
	return a.drawCustomize(w, r, http.StatusOK, nil, nil, nil)
}

// drawCustomize draws the customization page: the saved settings, or,
// after a refusal, the settings as typed (c, with typed holding what
// the settings cannot) and the refusal beside the control at fault.
func (a *App) drawCustomize(w http.ResponseWriter, r *http.Request, status int, c *settings, typed map[string]string, refusal error) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, siteID, siteSpaceID := r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("siteSpaceId")
	st, err := sites.SiteStructure(ctx, userFrom(ctx), orgID, siteID, "")
	if err != nil {
		return err
	}
	home := customizePath(orgID, siteID, "")
	d := siteCustomizeData{Site: st.Site, SiteURL: siteAppPath(st.Site), Home: home, Action: customizePath(orgID, siteID, siteSpaceID),
		PreviewAction: home + "/preview"}
	if siteSpaceID != "" {
		if d.SiteSpace = st.SiteSpaceByID(siteSpaceID); d.SiteSpace == nil {
			return quire.NotFound("site space")
		}
		d.Path = siteSpacePath(d.SiteSpace)
	}
	d.Preview = previewBase(orgID, siteID) + d.Path
	for _, v := range st.AllSiteSpaces {
		d.SiteSpaces = append(d.SiteSpaces, customizeSpaceLink{Title: v.Space.Space.Title,
			URL: customizePath(orgID, siteID, v.SiteSpace.ID), Current: v == d.SiteSpace})
	}
	if c == nil {
		if c, err = sites.SiteCustomization(ctx, orgID, siteID); err != nil {
			return err
		}
	}
	d.Groups = customizeGroups(*c, st.Site.Title)
	overlayTyped(d.Groups, typed)
	if field, msg, ok := formError(refusal); ok {
		d.Error = markRefusal(d.Groups, field, msg)
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Customize "+st.Site.Title, "sites"
	if d.SiteSpace != nil {
		sh.Title = "Customize " + d.SiteSpace.Space.Space.Title + " on " + st.Site.Title
	}
	if r.URL.Query().Get("done") == "saved" {
		sh.Notice = "The site’s customization was saved."
	}
	return a.render(w, r, status, "site_customize", sh, d)
}

// siteSpacePath is where a site space's first page is below its site:
// its section's path unless that is the default section, then its own
// unless it is its section's default.
func siteSpacePath(v *service.SiteSpaceView) string {
	p := ""
	if v.Section != nil && !v.Section.Default {
		p += url.PathEscape(v.Section.Section.Path) + "/"
	}
	if !v.Default {
		p += url.PathEscape(v.SiteSpace.Path) + "/"
	}
	return p
}

// saveSiteCustomization saves the customization form of a site, or of
// a site space (which takes the site's). A refused form is drawn again
// as typed, naming the control at fault, and nothing is stored.
func (a *App) saveSiteCustomization(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	if err := parseCustomizeForm(w, r); err != nil {
		return err
	}
	ctx := r.Context()
	orgID, siteID := r.PathValue("organizationId"), r.PathValue("siteId")
	c, typed, err := readCustomization(r.PostForm)
	if err == nil {
		err = checkCustomization(&c)
	}
	if err == nil {
		_, err = sites.PutSiteCustomization(ctx, orgID, siteID, c)
	}
	if _, _, ok := formError(err); ok {
		return a.drawCustomize(w, r, http.StatusUnprocessableEntity, &c, typed, err)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, customizePath(orgID, siteID, r.PathValue("siteSpaceId"))+"?done=saved", http.StatusSeeOther)
	return nil
}

// parseCustomizeForm reads the posted form, up to maxCustomizeForm.
func parseCustomizeForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxCustomizeForm)
	if err := r.ParseForm(); err != nil {
		return quire.Invalid("form", "could not be read: send at most 1 MB, URL-encoded")
	}
	return nil
}

// overlayTyped shows, in the controls named in typed, what was typed
// there rather than what the settings could hold.
func overlayTyped(groups []customizeGroup, typed map[string]string) {
	for i := range groups {
		g := &groups[i]
		for j := range g.Fields {
			if v, ok := typed[g.Fields[j].Name]; ok {
				g.Fields[j].Value = v
			}
		}
		overlayTyped(g.Groups, typed)
	}
}

// markRefusal puts the refusal of the member at path beside its control
// (or its group, for a whole list), unfolds what holds it, and returns
// the message naming it.
func markRefusal(groups []customizeGroup, path, msg string) string {
	for p := path; p != ""; p = parentPath(p) {
		if text, ok := markIn(groups, p, msg); ok {
			return text
		}
	}
	if path == "" {
		return "The form " + msg + "."
	}
	return path + " " + msg + "."
}

// markIn looks for the control or group at path among groups.
func markIn(groups []customizeGroup, path, msg string) (string, bool) {
	for i := range groups {
		g := &groups[i]
		for j := range g.Fields {
			if f := &g.Fields[j]; f.Name == path {
				f.Error = f.Where + " " + msg + "."
				g.Open = true
				return f.Error, true
			}
		}
		if g.Name == path && g.Name != "" {
			g.Error, g.Open = g.Legend+" "+msg+".", true
			return g.Error, true
		}
		if text, ok := markIn(g.Groups, path, msg); ok {
			g.Open = true
			return text, true
		}
	}
	return "", false
}

// parentPath is the path of the member holding the one at path:
// "a.b[2]" for "a.b[2].c", "a.b" for "a.b[2]"; "" at the top.
func parentPath(path string) string {
	if i := strings.LastIndexAny(path, ".["); i > 0 {
		return path[:i]
	}
	return ""
}
