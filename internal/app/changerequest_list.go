package app

import (
	"net/http"
	"net/url"
	"strconv"

	"quire/internal/quire"
)

// changeRequestsPageSize is how many change requests a list page shows.
const changeRequestsPageSize = 25

// changeRequestList is what a list of change requests shows: the filters
// (each with its address and whether it is chosen), a page of rows and
// the address of the next page.
type changeRequestList struct {
	// Space is the space listed, nil for the organization's list.
	Space   *quire.Space
	Filters []crFilterLink
	Rows    []crRow
	Count   int
	Next    string
	// Empty says what an empty list means.
	Empty string
}

// crFilterLink is one filter of a list.
type crFilterLink struct {
	Label, URL string
	Current    bool
}

// crRow is one change request of a list.
type crRow struct {
	CR        *quire.ChangeRequest
	URL       string
	Author    *quire.User
	Status    string
	Outdated  bool
	SpaceName string
	SpaceURL  string
}

// crListFilter is what a list's query asks for: a status and "mine" or
// "review".
type crListFilter struct {
	status quire.ChangeRequestStatus
	who    string
	cursor string
}

// readCRListFilter reads a list's query; an unknown status or person
// filter is invalid input, named.
func readCRListFilter(r *http.Request) (crListFilter, error) {
	q := r.URL.Query()
	f := crListFilter{status: quire.ChangeRequestStatus(q.Get("status")), who: q.Get("who"), cursor: q.Get("cursor")}
	switch f.status {
	case "", quire.CROpen, quire.CRDraft, quire.CRMerged, quire.CRArchived:
	default:
		return f, quire.Invalid("status", "must be open, draft, merged or archived")
	}
	switch f.who {
	case "", "mine", "review":
	default:
		return f, quire.Invalid("who", "must be mine or review")
	}
	return f, nil
}

// filterLinks returns the list's filters at base: each status, "Mine"
// and "Waiting for my review", the current one marked.
func (f crListFilter) filterLinks(base string) []crFilterLink {
	link := func(label string, status quire.ChangeRequestStatus, who string) crFilterLink {
		v := url.Values{}
		if status != "" {
			v.Set("status", string(status))
		}
		if who != "" {
			v.Set("who", who)
		}
		u := base
		if len(v) > 0 {
			u += "?" + v.Encode()
		}
		return crFilterLink{Label: label, URL: u, Current: f.status == status && f.who == who}
	}
	return []crFilterLink{
		link("All", "", ""),
		link("Open", quire.CROpen, ""),
		link("Draft", quire.CRDraft, ""),
		link("Merged", quire.CRMerged, ""),
		link("Archived", quire.CRArchived, ""),
		link("Mine", "", "mine"),
		link("Waiting for my review", "", "review"),
	}
}

// storeFilter narrows the store's list as f asks, for user u; "waiting
// for my review" keeps open change requests alone.
func (f crListFilter) storeFilter(u *quire.User) quire.ChangeRequestFilter {
	out := quire.ChangeRequestFilter{Status: f.status}
	switch f.who {
	case "mine":
		out.Creator = u.ID
	case "review":
		// Only an open change request waits for a review: a draft is
		// not ready, a merged or archived one is done.
		out.Reviewer, out.Status = u.ID, quire.CROpen
	}
	return out
}

// nextURL is the address of the list's next page.
func (f crListFilter) nextURL(base, cursor string) string {
	v := url.Values{"cursor": {cursor}}
	if f.status != "" {
		v.Set("status", string(f.status))
	}
	if f.who != "" {
		v.Set("who", f.who)
	}
	return base + "?" + v.Encode()
}

// emptyText says what an empty list means under f.
func (f crListFilter) emptyText() string {
	switch {
	case f.who == "review":
		return "Nobody is waiting for your review."
	case f.who == "mine":
		return "You have no change request here."
	case f.status != "":
		return "No " + string(f.status) + " change request."
	}
	return "No change request yet."
}

// spaceChangeRequests lists a space's change requests, newest first.
func (a *App) spaceChangeRequests(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	f, err := readCRListFilter(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	sf := f.storeFilter(userFrom(ctx))
	sf.SpaceID = sp.ID
	base := spaceAppPath(sp.ID, "changes")
	v, err := a.changeRequestRows(r, f, sf, base, sp)
	if err != nil {
		return err
	}
	v.Space = sp
	sh, err := a.spaceShell(r, sp, "Change requests · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section = "changes"
	tree, err := a.readTree(r, sp, currentMode(sp.ID))
	if err != nil {
		return err
	}
	return a.render(w, r, http.StatusOK, "changerequests", sh, &changeRequestsView{
		spaceSidebar: spaceSidebar{Space: sp, Tree: tree}, List: v})
}

// changeRequestsView is what the list page shows: a space's sidebar when
// it lists a space's, and the list.
type changeRequestsView struct {
	spaceSidebar
	List *changeRequestList
}

// orgChangeRequests lists the change requests of the organization's
// spaces that the viewer may read, newest first.
func (a *App) orgChangeRequests(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	f, err := readCRListFilter(r)
	if err != nil {
		return err
	}
	sf := f.storeFilter(userFrom(r.Context()))
	sf.OrgID = orgID
	v, err := a.changeRequestRows(r, f, sf, "/app/o/"+orgID+"/changes", nil)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Change requests", "changes"
	return a.render(w, r, http.StatusOK, "changerequests", sh, &changeRequestsView{List: v})
}

// changeRequestRows reads a page of the list. The organization's list
// (sp nil) holds the change requests of the spaces the viewer may read,
// as the service lists them, and each row names its space.
func (a *App) changeRequestRows(r *http.Request, f crListFilter, sf quire.ChangeRequestFilter, base string, sp *quire.Space) (*changeRequestList, error) {
	ctx := r.Context()
	var (
		l      *quire.List[*quire.ChangeRequest]
		spaces map[string]*quire.Space
		err    error
	)
	if sp == nil {
		l, spaces, err = a.svc.OrgChangeRequests(ctx, userFrom(ctx), sf, quire.Page{Cursor: f.cursor, Limit: changeRequestsPageSize})
	} else {
		l, err = a.svc.ChangeRequests(ctx, sf, quire.Page{Cursor: f.cursor, Limit: changeRequestsPageSize})
		spaces = map[string]*quire.Space{sp.ID: sp}
	}
	if err != nil {
		return nil, err
	}
	known := make([]*quire.Space, 0, len(spaces))
	for _, s := range spaces {
		known = append(known, s)
	}
	views, err := a.svc.ChangeRequestViews(ctx, l.Items, known...)
	if err != nil {
		return nil, err
	}
	out := &changeRequestList{Filters: f.filterLinks(base), Count: l.Count, Empty: f.emptyText()}
	for _, v := range views {
		cr := v.ChangeRequest
		row := crRow{CR: cr, URL: changeRequestPath(cr.SpaceID, strconv.Itoa(cr.Number)), Author: v.CreatedBy,
			Status: statusName(cr.Status), Outdated: v.Outdated}
		if s := spaces[cr.SpaceID]; sp == nil && s != nil {
			row.SpaceName, row.SpaceURL = s.Title, spacePath(s.ID)
		}
		out.Rows = append(out.Rows, row)
	}
	if l.Next != "" {
		out.Next = f.nextURL(base, l.Next)
	}
	return out, nil
}
