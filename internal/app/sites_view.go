package app

import (
	"net/http"
	"net/url"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// dateLayout is how the app's read-only pages show a date.
const dateLayout = "2 Jan 2006"

// sitesService returns the sites service, or says the server has none.
func (a *App) sitesService() (*service.Sites, error) {
	if a.cfg.Sites == nil {
		return nil, notAvailable("Sites are")
	}
	return a.cfg.Sites, nil
}

// siteRow is a site as the list of an organization's sites shows it.
type siteRow struct {
	Site *quire.Site
	// URL is the page of the site in the app; Published its address
	// for readers, "" while it is not published.
	URL        string
	Published  string
	Visibility string
}

// sitesData is what the list of an organization's sites shows.
type sitesData struct {
	Sites []siteRow
	// Next is the address of the following page of the list, "" on the
	// last.
	Next string
}

// sitesPage lists an organization's sites, a page of them at a time.
func (a *App) sitesPage(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	l, err := sites.Sites(r.Context(), quire.SiteFilter{OrgID: orgID}, quire.Page{Limit: quire.MaxLimit, Cursor: r.URL.Query().Get("page")})
	if err != nil {
		return err
	}
	var d sitesData
	for _, s := range l.Items {
		d.Sites = append(d.Sites, siteRow{Site: s, URL: siteAppPath(s), Published: a.publishedSite(s), Visibility: visibilityName(s.Visibility)})
	}
	if l.Next != "" {
		d.Next = "/app/o/" + url.PathEscape(orgID) + "/sites?page=" + url.QueryEscape(l.Next)
	}
	sh.Title, sh.Section = "Sites", "sites"
	return a.render(w, r, http.StatusOK, "sites", sh, d)
}

// siteAppPath is the app's page of a site.
func siteAppPath(s *quire.Site) string {
	return "/app/o/" + url.PathEscape(s.OrgID) + "/sites/" + url.PathEscape(s.ID)
}

// publishedSite is the address readers find a published site at, as the
// API answers it; "" while the site is not published.
func (a *App) publishedSite(s *quire.Site) string {
	if !s.Published {
		return ""
	}
	return a.cfg.BaseURL + "/sites/" + url.PathEscape(s.Name()) + "/"
}

// siteData is what a site's page shows.
type siteData struct {
	Site       *quire.Site
	Published  string
	Visibility string
	Created    string
	// Structure is the site's sections and groups, or its site spaces at
	// the root; Sections lists its sections in reading order.
	Structure *service.SiteStructure
	Sections  []siteSectionRow
	// Spaces are the site spaces at the root, when the site has no
	// sections.
	Spaces []siteSpaceRow
}

// siteSectionRow is a section of a site with its group's title and its
// site spaces.
type siteSectionRow struct {
	Section   *service.SiteSectionView
	Group     string
	Published string
	Spaces    []siteSpaceRow
}

// siteSpaceRow is a site space: its space, linked to its page in the app
// when the caller may read it, and its published address.
type siteSpaceRow struct {
	View      *service.SiteSpaceView
	SpaceURL  string
	Published string
}

// sitePage shows a site: its title, visibility, published address, and
// its sections and site spaces.
func (a *App) sitePage(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	st, err := sites.SiteStructure(r.Context(), userFrom(r.Context()), orgID, r.PathValue("siteId"), "")
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	d := siteData{Site: st.Site, Published: a.publishedSite(st.Site), Visibility: visibilityName(st.Site.Visibility), Created: formatDate(st.Site.CreatedAt), Structure: st}
	groups := map[string]string{}
	for _, g := range st.Groups {
		groups[g.Group.ID] = g.Group.Title
	}
	for _, sec := range st.Sections {
		row := siteSectionRow{Section: sec, Group: groups[sec.Section.Group], Published: d.Published}
		if row.Published != "" && !sec.Default {
			row.Published += url.PathEscape(sec.Section.Path) + "/"
		}
		for _, v := range sec.SiteSpaces {
			row.Spaces = append(row.Spaces, a.siteSpaceRow(d.Published, v))
		}
		d.Sections = append(d.Sections, row)
	}
	if !st.HasSections {
		for _, v := range st.SiteSpaces {
			d.Spaces = append(d.Spaces, a.siteSpaceRow(d.Published, v))
		}
	}
	sh.Title, sh.Section = st.Site.Title, "sites"
	return a.render(w, r, http.StatusOK, "site", sh, d)
}

// siteSpaceRow describes a site space; base is the site's published
// address, "" while it is not published.
func (a *App) siteSpaceRow(base string, v *service.SiteSpaceView) siteSpaceRow {
	row := siteSpaceRow{View: v}
	if v.Space.Space != nil && v.Space.Level >= quire.LevelRead {
		row.SpaceURL = "/app/s/" + url.PathEscape(v.Space.Space.ID)
	}
	container := base
	if v.Section != nil && container != "" && !v.Section.Default {
		container += url.PathEscape(v.Section.Section.Path) + "/"
	}
	if container != "" {
		row.Published = container
		if !v.Default {
			row.Published += url.PathEscape(v.SiteSpace.Path) + "/"
		}
	}
	return row
}

// formatDate shows a time as a date, "" for the zero time.
func formatDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(dateLayout)
}

// visibilityName says who may read a site of a visibility.
func visibilityName(v quire.Visibility) string {
	switch v {
	case quire.VisibilityPublic:
		return "Public: anyone, and search engines"
	case quire.VisibilityUnlisted:
		return "Unlisted: anyone with the address"
	case quire.VisibilityShareLink:
		return "Share links: holders of a share link"
	case quire.VisibilityVisitorAuth:
		return "Visitor authentication: visitors the site signs in"
	}
	return string(v)
}
