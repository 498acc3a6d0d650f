package app

import (
	"net/http"
	"strconv"

	"quire/internal/quire"
	"quire/internal/service"
)

// changeRequestView is what the change request page shows.
type changeRequestView struct {
	// spaceSidebar holds the change request, shown in the sidebar too.
	spaceSidebar
	Author   *quire.User
	Outdated bool
	// Status names its status.
	Status string
	// Pages are the pages it changes, each with its address in the
	// change request (none for a removed page).
	Pages []changedPage
}

// changedPage is a page a change request changes.
type changedPage struct {
	service.ChangedPage
	URL string
	// ChangeName says how it changes.
	ChangeName string
}

// changeRequestNumber reads the {number} of a change request's address;
// anything but a number names no change request.
func changeRequestNumber(r *http.Request) (string, error) {
	n := r.PathValue("number")
	if !isNumber(n) {
		return "", quire.NotFound("change request")
	}
	return n, nil
}

// isNumber reports whether s is a change request's number as its address
// writes it: a positive number without leading zeros.
func isNumber(s string) bool {
	v, err := strconv.Atoi(s)
	return err == nil && v > 0 && strconv.Itoa(v) == s
}

// changeRequest shows a change request: its subject, status, author,
// dates and the pages it changes.
func (a *App) changeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	n, err := changeRequestNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	views, err := a.svc.ChangeRequestViews(ctx, []*quire.ChangeRequest{cr}, sp)
	if err != nil {
		return err
	}
	pages, err := a.svc.ChangeRequestPages(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	m := changeMode(sp.ID, n)
	v := &changeRequestView{spaceSidebar: spaceSidebar{Space: sp, ChangeRequest: cr}, Author: views[0].CreatedBy, Outdated: views[0].Outdated,
		Status: statusName(cr.Status)}
	for _, p := range pages {
		cp := changedPage{ChangedPage: p, ChangeName: changeName(p.Change)}
		if p.Change != service.PageRemoved {
			cp.URL = m.base + p.Path
		}
		v.Pages = append(v.Pages, cp)
	}
	if v.Tree, err = a.readTree(r, sp, m); err != nil {
		return err
	}
	v.Edit = a.treeEditBase(r, sp, m, cr)
	sh, err := a.spaceShell(r, sp, "#"+n+" "+cr.Subject+" · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section = "changes"
	return a.render(w, r, http.StatusOK, "changerequest", sh, v)
}

// changeRequestPage shows a page as a change request has it.
func (a *App) changeRequestPage(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	n, err := changeRequestNumber(r)
	if err != nil {
		return err
	}
	m := changeMode(sp.ID, n)
	v, err := a.readPage(r, sp, m, r.PathValue("path"))
	if err != nil {
		return err
	}
	title := "#" + n + " · " + sp.Title
	if v.Page != nil {
		title = v.Page.Title + " · " + title
	}
	sh, err := a.spaceShell(r, sp, title)
	if err != nil {
		return err
	}
	sh.Section = "changes"
	return a.render(w, r, http.StatusOK, "page", sh, v)
}

// changeName names how a change request changes a page.
func changeName(c string) string {
	switch c {
	case service.PageAdded:
		return "Added"
	case service.PageRemoved:
		return "Removed"
	}
	return "Edited"
}

// statusName names a change request's status.
func statusName(s quire.ChangeRequestStatus) string {
	switch s {
	case quire.CRDraft:
		return "Draft"
	case quire.CROpen:
		return "Open"
	case quire.CRMerged:
		return "Merged"
	case quire.CRArchived:
		return "Archived"
	}
	return string(s)
}
