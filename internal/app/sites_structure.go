package app

import (
	"net/http"
	"net/url"

	"quire/internal/adaptive"
	"quire/internal/quire"
	"quire/internal/service"
)

// addSection adds a section publishing the space chosen, with the title
// and icon given (the space's title when none).
func (a *App) addSection(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	in := service.SectionCreate{SpaceID: r.PostFormValue("space")}
	if in.SpaceID == "" {
		err = quire.Invalid("spaceId", "choose a space")
	}
	if err == nil {
		in.Title, err = textField(r, "title", "title", maxSiteTitle, false)
	}
	if err == nil {
		in.Icon, err = textField(r, "icon", "icon", maxSiteIcon, false)
	}
	if err == nil {
		_, err = sites.AddSection(r.Context(), userFrom(r.Context()), r.PathValue("organizationId"), r.PathValue("siteId"), in)
	}
	return a.refusedOnSite(w, r, "section-new", "section-added", err)
}

// addSiteSpace publishes the space chosen in the site: in the section
// chosen, else the default section, else at the root.
func (a *App) addSiteSpace(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	space := r.PostFormValue("space")
	if space == "" {
		err = quire.Invalid("spaceId", "choose a space")
	} else {
		_, err = sites.AddSiteSpace(r.Context(), userFrom(r.Context()), r.PathValue("organizationId"), r.PathValue("siteId"),
			space, r.PostFormValue("section"))
	}
	return a.refusedOnSite(w, r, "space-new", "space-added", err)
}

// addGroup adds a section group holding the sections checked.
func (a *App) addGroup(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	var in service.GroupCreate
	in.Title, err = textField(r, "title", "title", maxGroupTitle, true)
	if err == nil {
		in.Icon, err = textField(r, "icon", "icon", maxSiteIcon, false)
	}
	if err == nil {
		in.Sections = r.PostForm["sections"]
		_, err = sites.AddSectionGroup(r.Context(), userFrom(r.Context()), r.PathValue("organizationId"), r.PathValue("siteId"), in)
	}
	return a.refusedOnSite(w, r, "group-new", "group-added", err)
}

// siteItemData is what the page of one item of a site's structure shows:
// the form changing it and the steps it offers.
type siteItemData struct {
	typedForm
	Site   *quire.Site
	Base   string
	Notice string
	// One of Section, Group and SiteSpace is the item.
	Section   *service.SiteSectionView
	Group     *service.SiteGroupView
	SiteSpace *service.SiteSpaceView
	// Conditions are the conditions the site's visitor schema suggests;
	// CheckURL checks one as it is typed.
	Conditions []adaptive.TemplateCondition
	CheckURL   string
	// InGroup are a group's sections, Others the sections it may take.
	InGroup, Others []spaceOption
}

// siteItemPage reads the site's structure and draws the page of one of
// its items, named by the path parameter param; with state, its refused
// form again as it was typed.
func (a *App) siteItemPage(w http.ResponseWriter, r *http.Request, status int, state *FormState, name string) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID := r.PathValue("organizationId")
	st, err := sites.SiteStructure(ctx, userFrom(ctx), orgID, r.PathValue("siteId"), "")
	if err != nil {
		return err
	}
	d := &siteItemData{typedForm: typedForm{State: state, Typed: r.PostForm}, Site: st.Site, Base: siteAppPath(st.Site), Notice: sitesNotice(r)}
	title := ""
	switch name {
	case "site_section":
		if d.Section = st.SectionByID(r.PathValue("siteSectionId")); d.Section == nil {
			return quire.NotFound("site section")
		}
		title = d.Section.Section.Title
	case "site_group":
		if d.Group = st.GroupByID(r.PathValue("siteSectionGroupId")); d.Group == nil {
			return quire.NotFound("site section group")
		}
		title = d.Group.Group.Title
		for _, sec := range st.Sections {
			o := spaceOption{Value: sec.Section.ID, Label: sec.Section.Title}
			if sec.Section.Group == d.Group.Group.ID {
				d.InGroup = append(d.InGroup, o)
			} else {
				d.Others = append(d.Others, o)
			}
		}
	default:
		if d.SiteSpace = st.SiteSpaceByID(r.PathValue("siteSpaceId")); d.SiteSpace == nil {
			return quire.NotFound("site space")
		}
		title = d.SiteSpace.Space.Space.Title
	}
	if name != "site_group" {
		if d.Conditions, err = sites.SiteTemplateConditions(ctx, orgID, st.Site.ID); err != nil {
			return err
		}
		d.CheckURL = d.Base + "/condition.json?condition="
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = title+" · "+st.Site.Title, "sites"
	return a.render(w, r, status, name, sh, d)
}

// itemPath is the page of the item the request names, under the site's.
func itemPath(r *http.Request, kind, param, done string) string {
	p := sitePath(r, "") + "/" + kind + "/" + url.PathEscape(r.PathValue(param))
	if done != "" {
		p += "?done=" + done
	}
	return p
}

// refusedOnItem draws an item's page again when err is about a field of
// its form; it returns err otherwise, nil after a redirect to the
// item's page with done.
func (a *App) refusedOnItem(w http.ResponseWriter, r *http.Request, name, kind, param, done string, err error) error {
	if st, ok := siteFormState(name, err); ok {
		return a.siteItemPage(w, r, http.StatusUnprocessableEntity, st, name)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, itemPath(r, kind, param, done), http.StatusSeeOther)
	return nil
}

// sectionPage shows a section's form.
func (a *App) sectionPage(w http.ResponseWriter, r *http.Request) error {
	return a.siteItemPage(w, r, http.StatusOK, nil, "site_section")
}

// groupPage shows a section group's form and its sections.
func (a *App) groupPage(w http.ResponseWriter, r *http.Request) error {
	return a.siteItemPage(w, r, http.StatusOK, nil, "site_group")
}

// siteSpacePage shows a site space's form.
func (a *App) siteSpacePage(w http.ResponseWriter, r *http.Request) error {
	return a.siteItemPage(w, r, http.StatusOK, nil, "site_space")
}

// updateSection saves a section's form: title, icon, path, description
// and condition, and makes it the site's default when asked.
func (a *App) updateSection(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, siteID, id := r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("siteSectionId")
	upd, err := sectionForm(r)
	if err == nil {
		_, err = sites.UpdateSection(ctx, userFrom(ctx), orgID, siteID, id, upd)
	}
	if err == nil && r.PostFormValue("default") == "on" {
		_, err = sites.UpdateSite(ctx, orgID, siteID, quire.SiteUpdate{DefaultSection: &id}, nil)
	}
	return a.refusedOnItem(w, r, "site_section", "sections", "siteSectionId", "section-saved", err)
}

// sectionForm reads a section's form into an update, checking the
// lengths the service leaves to the API's schema.
func sectionForm(r *http.Request) (quire.SiteSectionUpdate, error) {
	var upd quire.SiteSectionUpdate
	fields := []struct {
		name, field string
		max         int
		required    bool
		to          **string
	}{
		{"title", "title", maxSiteTitle, true, &upd.Title},
		{"icon", "icon", maxSiteIcon, false, &upd.Icon},
		{"path", "path", maxSitePath, true, &upd.Path},
		{"description", "description", maxSectionDesc, false, &upd.Description},
		{"condition", "condition", maxSiteCond, false, &upd.Condition},
	}
	for _, f := range fields {
		v, err := textField(r, f.name, f.field, f.max, f.required)
		if err != nil {
			return upd, err
		}
		*f.to = &v
	}
	return upd, nil
}

// deleteSection deletes a section with its site spaces once confirmed;
// without the confirmation it draws the page asking for it.
func (a *App) deleteSection(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, siteID, id := r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("siteSectionId")
	st, err := sites.SiteStructure(ctx, userFrom(ctx), orgID, siteID, "")
	if err != nil {
		return err
	}
	sec := st.SectionByID(id)
	if sec == nil {
		return quire.NotFound("site section")
	}
	if r.PostFormValue("confirm") != "yes" {
		return a.drawConfirm(w, r, orgID, confirmView{Section: "sites", Heading: "Delete the section “" + sec.Section.Title + "”?",
			Text:   "Its site spaces leave the site with it; the spaces themselves stay.",
			Button: "Delete section", Back: itemPath(r, "sections", "siteSectionId", ""), Danger: true})
	}
	if _, err := sites.DeleteSection(ctx, orgID, siteID, id); err != nil {
		return err
	}
	return siteDone(w, r, "section-deleted")
}

// updateGroup saves a section group's title and icon.
func (a *App) updateGroup(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	title, err := textField(r, "title", "title", maxGroupTitle, true)
	var icon string
	if err == nil {
		icon, err = textField(r, "icon", "icon", maxSiteIcon, false)
	}
	if err == nil {
		_, err = sites.UpdateSectionGroup(ctx, userFrom(ctx), r.PathValue("organizationId"), r.PathValue("siteId"),
			r.PathValue("siteSectionGroupId"), &title, &icon)
	}
	return a.refusedOnItem(w, r, "site_group", "groups", "siteSectionGroupId", "group-saved", err)
}

// deleteGroup deletes a section group; its sections stay, at the end of
// where the group was.
func (a *App) deleteGroup(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ok, err := sites.DeleteSectionGroup(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("siteSectionGroupId"))
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("site section group")
	}
	return siteDone(w, r, "group-deleted")
}

// addToGroup moves the section chosen to the end of a group.
func (a *App) addToGroup(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	section := r.PostFormValue("section")
	if section == "" {
		err = quire.Invalid("sectionId", "choose a section")
	} else {
		_, err = sites.AddSectionToGroup(ctx, userFrom(ctx), r.PathValue("organizationId"), r.PathValue("siteId"),
			r.PathValue("siteSectionGroupId"), section)
	}
	return a.refusedOnItem(w, r, "site_group", "groups", "siteSectionGroupId", "group-saved", err)
}

// removeFromGroup moves a section out of a group, to the end of the
// group's parent.
func (a *App) removeFromGroup(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ok, err := sites.RemoveSectionFromGroup(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionGroupId"), r.PathValue("siteSectionId"))
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("site section in this group")
	}
	http.Redirect(w, r, itemPath(r, "groups", "siteSectionGroupId", "group-saved"), http.StatusSeeOther)
	return nil
}

// updateSiteSpace saves a site space's path and condition, and makes it
// the default of what holds it when asked.
func (a *App) updateSiteSpace(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, siteID, id := r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("siteSpaceId")
	var upd quire.SiteSpaceUpdate
	path, err := textField(r, "path", "path", maxSitePath, true)
	var cond string
	if err == nil {
		cond, err = textField(r, "condition", "condition", maxSiteCond, false)
	}
	if err == nil {
		upd.Path, upd.Condition = &path, &cond
		_, err = sites.UpdateSiteSpace(ctx, userFrom(ctx), orgID, siteID, id, upd)
	}
	if err == nil && r.PostFormValue("default") == "on" {
		_, err = sites.UpdateSite(ctx, orgID, siteID, quire.SiteUpdate{}, &id)
	}
	return a.refusedOnItem(w, r, "site_space", "site-spaces", "siteSpaceId", "space-saved", err)
}

// removeSiteSpace takes a site space out of the site; the space stays.
func (a *App) removeSiteSpace(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ok, err := sites.DeleteSiteSpace(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("site space")
	}
	return siteDone(w, r, "space-removed")
}
