package app

import (
	"net/http"
	"slices"

	"quire/internal/quire"
	"quire/internal/service"
)

// coverageOption is a space or site the coverage form offers.
type coverageOption struct {
	ID, Title string
	Checked   bool
}

// coverageData is what the page choosing what an installation covers
// shows.
type coverageData struct {
	Title, Icon  string
	Action, Back string
	// OnSpaces and OnSites say the integration installs on that kind of
	// content; AllSpaces and AllSites that it covers every one.
	OnSpaces, OnSites   bool
	AllSpaces, AllSites bool
	Spaces, Sites       []coverageOption
	// NoSites says the server runs without sites, so none is offered.
	NoSites bool
	// Error is the message of a refused form, Field the field it is
	// about.
	Error, Field string
}

// coverageForm is the coverage form as posted.
type coverageForm struct {
	spaces, sites     string
	spaceIDs, siteIDs []string
}

// coverage answers the page choosing what an installation covers.
func (a *App) coverage(w http.ResponseWriter, r *http.Request) error {
	ints, ii, err := a.installed(r)
	if err != nil {
		return err
	}
	inst := ii.Installation
	f := coverageForm{spaces: inst.SpaceSelection, sites: inst.SiteSelection}
	for _, sp := range ii.Spaces {
		f.spaceIDs = append(f.spaceIDs, sp.ID)
	}
	for _, s := range ii.Sites {
		f.siteIDs = append(f.siteIDs, s.ID)
	}
	return a.drawCoverage(w, r, http.StatusOK, ints, ii, f, "", "")
}

// drawCoverage draws the coverage form showing f, with the message of a
// refused form.
func (a *App) drawCoverage(w http.ResponseWriter, r *http.Request, status int, ints *service.Integrations, ii *service.InstalledIntegration, f coverageForm, field, msg string) error {
	in, inst := ii.Integration, ii.Installation
	d := coverageData{Title: in.Manifest.Title, Icon: integrationIcon(ints, in), Action: integrationPath(inst.OrgID, in.Name, "coverage"),
		Back: integrationPath(inst.OrgID, in.Name), OnSpaces: in.Manifest.Target != string(quire.OnSite),
		OnSites: in.Manifest.Target != string(quire.OnSpace), AllSpaces: f.spaces == quire.SelectionAll,
		AllSites: f.sites == quire.SelectionAll, NoSites: a.cfg.Sites == nil, Error: msg, Field: field}
	spaces, err := a.orgSpaces(r, inst.OrgID)
	if err != nil {
		return err
	}
	for _, sp := range spaces {
		d.Spaces = append(d.Spaces, coverageOption{ID: sp.ID, Title: sp.Title, Checked: slices.Contains(f.spaceIDs, sp.ID)})
	}
	sites, err := a.orgSites(r, inst.OrgID)
	if err != nil {
		return err
	}
	for _, s := range sites {
		d.Sites = append(d.Sites, coverageOption{ID: s.ID, Title: s.Title, Checked: slices.Contains(f.siteIDs, s.ID)})
	}
	sh, err := a.shell(r, inst.OrgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Spaces and sites of "+in.Manifest.Title, "integrations"
	return a.render(w, r, status, "integration_coverage", sh, d)
}

// orgSpaces returns the organization's live spaces the caller sees.
func (a *App) orgSpaces(r *http.Request, orgID string) ([]*quire.Space, error) {
	var out []*quire.Space
	for p := (quire.Page{Limit: quire.MaxLimit}); ; {
		l, err := a.svc.Spaces(r.Context(), userFrom(r.Context()), orgID, p)
		if err != nil {
			return nil, err
		}
		for _, v := range l.Items {
			out = append(out, v.Space)
		}
		if l.Next == "" {
			return out, nil
		}
		p.Cursor = l.Next
	}
}

// orgSites returns the organization's sites; none when the server runs
// without sites.
func (a *App) orgSites(r *http.Request, orgID string) ([]*quire.Site, error) {
	if a.cfg.Sites == nil {
		return nil, nil
	}
	var out []*quire.Site
	for p := (quire.Page{Limit: quire.MaxLimit}); ; {
		l, err := a.cfg.Sites.Sites(r.Context(), quire.SiteFilter{OrgID: orgID}, p)
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		if l.Next == "" {
			return out, nil
		}
		p.Cursor = l.Next
	}
}

// saveCoverage saves what an installation covers: every space (site) of
// the organization, or exactly those checked, installing it on the
// newly checked ones and uninstalling it from those no longer checked,
// through the API's operations. The form is checked whole first: a
// refused one is drawn again naming its field, and nothing changes.
func (a *App) saveCoverage(w http.ResponseWriter, r *http.Request) error {
	ints, ii, err := a.installed(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return quire.Invalid("spaces", "the form could not be read")
	}
	f := coverageForm{spaces: r.PostForm.Get("spaces"), sites: r.PostForm.Get("sites"),
		spaceIDs: r.PostForm["space"], siteIDs: r.PostForm["site"]}
	spaces, err := a.orgSpaces(r, ii.Installation.OrgID)
	if err != nil {
		return err
	}
	sites, err := a.orgSites(r, ii.Installation.OrgID)
	if err != nil {
		return err
	}
	spaceIDs, siteIDs := idsOf(spaces, func(s *quire.Space) string { return s.ID }), idsOf(sites, func(s *quire.Site) string { return s.ID })
	err = a.checkCoverage(ii.Integration, f, spaceIDs, siteIDs)
	if err == nil {
		err = a.applyCoverage(r, ints, ii, f, spaceIDs, siteIDs)
	}
	if field, msg, ok := formError(err); ok {
		return a.drawCoverage(w, r, http.StatusUnprocessableEntity, ints, ii, f, field, coverageLabel(field)+" "+msg+".")
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, integrationPath(ii.Installation.OrgID, ii.Integration.Name)+"?done=covered", http.StatusSeeOther)
	return nil
}

// idsOf returns the ids of a list.
func idsOf[T any](items []T, id func(T) string) map[string]bool {
	out := make(map[string]bool, len(items))
	for _, it := range items {
		out[id(it)] = true
	}
	return out
}

// coverageLabel names a field of the coverage form in a message.
func coverageLabel(field string) string {
	switch field {
	case "spaces":
		return "Spaces"
	case "space":
		return "Spaces checked"
	case "sites":
		return "Sites"
	case "site":
		return "Sites checked"
	}
	return "The form"
}

// checkCoverage checks a coverage form: a choice for each kind of
// content the integration installs on, none for another, and only the
// organization's spaces and sites checked.
func (a *App) checkCoverage(in *quire.Integration, f coverageForm, spaceIDs, siteIDs map[string]bool) error {
	for _, k := range []struct {
		field, item, choice string
		ids                 []string
		on                  bool
		known               map[string]bool
	}{
		{"spaces", "space", f.spaces, f.spaceIDs, in.Manifest.Target != string(quire.OnSite), spaceIDs},
		{"sites", "site", f.sites, f.siteIDs, in.Manifest.Target != string(quire.OnSpace), siteIDs},
	} {
		if !k.on {
			if k.choice != "" || len(k.ids) > 0 {
				return quire.Invalid(k.field, "cannot be chosen: %s installs on %ss only", in.Manifest.Title, in.Manifest.Target)
			}
			continue
		}
		if k.field == "sites" && a.cfg.Sites == nil {
			if k.choice != "" || len(k.ids) > 0 {
				return quire.Invalid(k.field, "are not available on this server")
			}
			continue
		}
		if k.choice != quire.SelectionAll && k.choice != quire.SelectionSelected {
			return quire.Invalid(k.field, "choose every %s or the %ss checked", k.item, k.item)
		}
		for _, id := range k.ids {
			if !k.known[id] {
				return quire.Invalid(k.item, "names no %s of the organization", k.item)
			}
		}
	}
	return nil
}

// applyCoverage writes a checked coverage form: the selections, then
// for each kind covered by the spaces (sites) checked, the installations
// on those newly checked and the removals from those no longer checked
// among the organization's; with every space (site) covered, the checks
// are not used.
func (a *App) applyCoverage(r *http.Request, ints *service.Integrations, ii *service.InstalledIntegration, f coverageForm, spaceIDs, siteIDs map[string]bool) error {
	ctx := r.Context()
	u := userFrom(ctx)
	in, inst := ii.Integration, ii.Installation
	var upd service.InstallationUpdate
	if f.spaces != "" && f.spaces != inst.SpaceSelection {
		upd.SpaceSelection = &f.spaces
	}
	if f.sites != "" && f.sites != inst.SiteSelection {
		upd.SiteSelection = &f.sites
	}
	if upd.SpaceSelection != nil || upd.SiteSelection != nil {
		if _, _, err := ints.UpdateInstallation(ctx, u, in.Name, inst.ID, upd); err != nil {
			return err
		}
		// What it was installed on before, listed now that the
		// selections are the form's.
		now, err := ints.InstallationIn(ctx, u, in.Name, inst.OrgID)
		if err != nil {
			return err
		}
		ii = now
	}
	if f.spaces == quire.SelectionSelected {
		var was []string
		for _, sp := range ii.Spaces {
			was = append(was, sp.ID)
		}
		if err := cover(r, ints, ii, quire.OnSpace, was, f.spaceIDs, spaceIDs); err != nil {
			return err
		}
	}
	if f.sites == quire.SelectionSelected {
		var was []string
		for _, s := range ii.Sites {
			was = append(was, s.ID)
		}
		if err := cover(r, ints, ii, quire.OnSite, was, f.siteIDs, siteIDs); err != nil {
			return err
		}
	}
	return nil
}

// cover installs an installation on the spaces or sites checked that it
// was not installed on, and uninstalls it from those of the
// organization's it was installed on and are no longer checked.
func cover(r *http.Request, ints *service.Integrations, ii *service.InstalledIntegration, kind quire.InstallationTarget, was, checked []string, known map[string]bool) error {
	ctx := r.Context()
	u := userFrom(ctx)
	name, id := ii.Integration.Name, ii.Installation.ID
	for _, t := range checked {
		if !slices.Contains(was, t) {
			if _, _, err := ints.InstallOn(ctx, u, name, id, kind, t); err != nil {
				return err
			}
			was = append(was, t)
		}
	}
	for _, t := range was {
		if known[t] && !slices.Contains(checked, t) {
			if _, err := ints.UninstallFrom(ctx, u, name, id, kind, t); err != nil {
				return err
			}
		}
	}
	return nil
}
