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

// sitesData is what the list of an organization's sites shows, with the
// form creating one to those who may.
type sitesData struct {
	typedForm
	OrgID string
	Sites []siteRow
	// Next is the address of the following page of the list, "" on the
	// last.
	Next string
	// Manage tells whether the caller may create a site; Spaces are the
	// spaces it may publish.
	Manage bool
	Spaces []spaceOption
	Notice string
}

// sitesPage lists an organization's sites, a page of them at a time.
func (a *App) sitesPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawSites(w, r, http.StatusOK, nil)
}

// drawSites draws the list of sites; with state, the refused creation
// form again as it was typed.
func (a *App) drawSites(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
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
	d := sitesData{typedForm: typedForm{State: state, Typed: r.PostForm}, OrgID: orgID, Manage: sh.Level >= quire.LevelCreate, Notice: sitesNotice(r)}
	for _, s := range l.Items {
		d.Sites = append(d.Sites, siteRow{Site: s, URL: siteAppPath(s), Published: a.publishedSite(s), Visibility: visibilityName(s.Visibility)})
	}
	if l.Next != "" {
		d.Next = "/app/o/" + url.PathEscape(orgID) + "/sites?page=" + url.QueryEscape(l.Next)
	}
	if d.Manage {
		d.Spaces = spaceChoices(sh.Tree, "")
	}
	sh.Title, sh.Section = "Sites", "sites"
	return a.render(w, r, status, "sites", sh, d)
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

// siteData is what a site's page shows: its settings and structure to
// everyone who may read it, and to those who may change the site the
// forms that do.
type siteData struct {
	typedForm
	Site       *quire.Site
	Published  string
	Visibility string
	Created    string
	Notice     string
	// Base is the site's page in the app, which its forms post under.
	Base string
	// Structure is the site's sections and groups, or its site spaces at
	// the root; Items draws it as a tree.
	Structure *service.SiteStructure
	Items     []*siteItem
	// Manage tells whether the caller may change the site; Admin whether
	// they also see how visitors are authenticated.
	Manage, Admin bool
	// Spaces are the organization's spaces the caller may publish;
	// Visibilities the visibilities a site may have.
	Spaces       []spaceOption
	Visibilities []spaceOption
	// Links are the site's share links.
	Links []shareLinkRow
	// Auth is how the site authenticates its visitors, for admins; when
	// its key cannot be read, AuthProblem says so.
	Auth        *service.SitePublishingAuth
	AuthProblem string
}

// spaceOption is a choice of a form's list: a value and its label.
type spaceOption struct {
	Value, Label string
}

// siteItem is a section group, a section or a site space in the tree of
// a site's structure.
type siteItem struct {
	ID string
	// Kind is what the item moves among, as the drag script reads it:
	// "section" for sections and groups, "space" for site spaces; Holds
	// what may be dropped inside it.
	Kind, Holds string
	// What names the kind of item for people.
	What        string
	Title, Icon string
	// SpaceURL is the page of a site space's space, when the caller may
	// read it.
	SpaceURL  string
	Path      string
	Published string
	Condition string
	// Default marks the site's default section, and the default site
	// space of a section (or root) holding several.
	Default bool
	EditURL string
	// Manage tells whether the caller may move and edit the item, with
	// MoveURL the form moving it.
	Manage  bool
	MoveURL string
	// Up and Down are the items before and after it among its siblings,
	// "" at either end.
	Up, Down string
	Children []*siteItem
}

// shareLinkRow is a share link with the address it opens the site at,
// "" for a caller who may not see its key.
type shareLinkRow struct {
	Link *quire.SiteShareLink
	URL  string
}

// sitePage shows a site: its settings, published address and structure,
// and to those who may change it the forms that do.
func (a *App) sitePage(w http.ResponseWriter, r *http.Request) error {
	return a.drawSite(w, r, http.StatusOK, nil)
}

// drawSite draws a site's page; with state, the refused form again as
// it was typed.
func (a *App) drawSite(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	u := userFrom(ctx)
	orgID := r.PathValue("organizationId")
	st, err := sites.SiteStructure(ctx, u, orgID, r.PathValue("siteId"), "")
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	site := st.Site
	d := &siteData{typedForm: typedForm{State: state, Typed: r.PostForm}, Site: site, Published: a.publishedSite(site),
		Visibility: visibilityName(site.Visibility), Created: formatDate(site.CreatedAt), Notice: sitesNotice(r),
		Base: siteAppPath(site), Structure: st, Manage: sh.Level >= quire.LevelCreate, Admin: sh.Level >= quire.LevelAdmin}
	d.Items = a.siteItems(d, st)
	if d.Manage {
		d.Spaces = spaceChoices(sh.Tree, "")
		for _, v := range []quire.Visibility{quire.VisibilityPublic, quire.VisibilityUnlisted, quire.VisibilityShareLink, quire.VisibilityVisitorAuth} {
			d.Visibilities = append(d.Visibilities, spaceOption{Value: string(v), Label: visibilityName(v)})
		}
	}
	_, links, err := sites.SiteShareLinks(ctx, u, orgID, site.ID, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	for _, l := range links.Items {
		row := shareLinkRow{Link: l}
		if l.Key != "" {
			row.URL = a.cfg.BaseURL + "/sites/" + url.PathEscape(site.Name()) + "/~share/" + url.PathEscape(l.Key) + "/"
		}
		d.Links = append(d.Links, row)
	}
	if d.Admin {
		if d.Auth, err = sites.SitePublishingAuth(ctx, orgID, site.ID); err != nil {
			a.log.ErrorContext(ctx, "reading a site's visitor authentication", "site", site.ID, "err", err)
			d.Auth, d.AuthProblem = nil, "The signing key could not be read. Make a new one to let visitors in again."
		}
	}
	sh.Title, sh.Section = site.Title, "sites"
	return a.render(w, r, status, "site", sh, d)
}

// spaceChoices lists the spaces of the tree the caller may read, in the
// tree's order, each labelled with the collections above it.
func spaceChoices(nodes []*TreeNode, path string) []spaceOption {
	var out []spaceOption
	for _, n := range nodes {
		switch {
		case n.Space && n.Level >= read:
			label := n.Title
			if n.Emoji != "" {
				label = n.Emoji + " " + label
			}
			out = append(out, spaceOption{Value: n.ID, Label: path + label})
		case !n.Space:
			out = append(out, spaceChoices(n.Children, path+n.Title+" / ")...)
		}
	}
	return out
}

// siteItems arranges a site's structure as the tree its page draws.
func (a *App) siteItems(d *siteData, st *service.SiteStructure) []*siteItem {
	if !st.HasSections {
		return siblings(a.siteSpaceItems(d, d.Published, st.SiteSpaces))
	}
	return a.nodeItems(d, st.Nodes)
}

// nodeItems makes the items of sections and groups, with their
// children.
func (a *App) nodeItems(d *siteData, nodes []service.SiteNode) []*siteItem {
	var out []*siteItem
	for _, n := range nodes {
		if g := n.Group; g != nil {
			out = append(out, &siteItem{ID: g.Group.ID, Kind: "section", Holds: "section", What: "Section group",
				Title: g.Group.Title, Icon: g.Group.Icon, EditURL: d.Base + "/groups/" + url.PathEscape(g.Group.ID),
				Children: a.nodeItems(d, g.Children), Manage: d.Manage, MoveURL: d.moveURL(g.Group.ID)})
			continue
		}
		sec := n.Section
		it := &siteItem{ID: sec.Section.ID, Kind: "section", Holds: "space", What: "Section", Title: sec.Section.Title,
			Icon: sec.Section.Icon, Path: sec.Section.Path, Condition: sec.Section.Condition, Default: sec.Default,
			EditURL: d.Base + "/sections/" + url.PathEscape(sec.Section.ID), Published: d.Published,
			Manage: d.Manage, MoveURL: d.moveURL(sec.Section.ID)}
		if it.Published != "" && !sec.Default {
			it.Published += url.PathEscape(sec.Section.Path) + "/"
		}
		it.Children = siblings(a.siteSpaceItems(d, it.Published, sec.SiteSpaces))
		out = append(out, it)
	}
	return siblings(out)
}

// siteSpaceItems makes the items of site spaces; base is the published
// address of what holds them, "" while the site is not published.
func (a *App) siteSpaceItems(d *siteData, base string, list []*service.SiteSpaceView) []*siteItem {
	var out []*siteItem
	for _, v := range list {
		it := &siteItem{ID: v.SiteSpace.ID, Kind: "space", What: "Site space", Title: v.Space.Space.Title,
			Path: v.SiteSpace.Path, Condition: v.SiteSpace.Condition, Default: v.Default && len(list) > 1,
			EditURL: d.Base + "/site-spaces/" + url.PathEscape(v.SiteSpace.ID), Manage: d.Manage, MoveURL: d.moveURL(v.SiteSpace.ID)}
		if v.Space.Level >= quire.LevelRead {
			it.SpaceURL = "/app/s/" + url.PathEscape(v.Space.Space.ID)
		}
		if base != "" {
			it.Published = base
			if !v.Default {
				it.Published += url.PathEscape(v.SiteSpace.Path) + "/"
			}
		}
		out = append(out, it)
	}
	return out
}

// moveURL is the form moving an item of the site's structure.
func (d *siteData) moveURL(id string) string {
	return d.Base + "/items/" + url.PathEscape(id) + "/move"
}

// siblings links each item of a list to those before and after it.
func siblings(list []*siteItem) []*siteItem {
	for i, it := range list {
		if i > 0 {
			it.Up = list[i-1].ID
		}
		if i+1 < len(list) {
			it.Down = list[i+1].ID
		}
	}
	return list
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

// SpaceChoice offers the organization's spaces with chosen selected.
func (d *siteData) SpaceChoice(chosen string) spaceChoice {
	return spaceChoice{List: d.Spaces, Chosen: chosen}
}

// Fallback is the stored fallback URL of the site's visitor
// authentication, "" when none or not read.
func (d *siteData) Fallback() string {
	if d.Auth == nil {
		return ""
	}
	return d.Auth.FallbackURL
}
