package app

import (
	"net/http"
	"net/url"

	"quire/internal/quire"
	"quire/internal/service"
)

// revisionsView is what the revisions page lists.
type revisionsView struct {
	// The sidebar shows the space's tree with no page marked.
	spaceSidebar
	Revisions []revisionRow
	// Current is the space's current revision; Older the address of the
	// next page of older revisions, "" at the first.
	Current string
	Older   string
	// Compare is the address comparing two revisions.
	Compare string
	// CanEdit shows the restore controls.
	CanEdit bool
}

// revisionPagesShown is how many changed pages a revision of the list
// names before "and N more".
const revisionPagesShown = 3

// spaceRevisions lists a space's revisions, newest first, from ?from=
// (a revision id) for older pages.
func (a *App) spaceRevisions(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	items, next, err := a.svc.SpaceHistory(r.Context(), sp.ID, r.URL.Query().Get("from"), 0)
	if err != nil {
		return err
	}
	v := &revisionsView{spaceSidebar: spaceSidebar{Space: sp}, Current: sp.Revision, Compare: spaceAppPath(sp.ID, "compare"),
		CanEdit: levelFrom(r.Context()) >= edit}
	for _, it := range items {
		row := revisionRow{RevisionView: it, Kind: revisionKind(it.Revision.Type), URL: revisionPath(sp.ID, it.Revision.ID)}
		if ps := it.Revision.Parents; len(ps) > 0 {
			row.CompareURL = v.Compare + "?" + url.Values{"from": {ps[0]}, "to": {it.Revision.ID}}.Encode()
		}
		pages, total, err := a.svc.RevisionPages(r.Context(), it.Revision, revisionPagesShown)
		if err != nil {
			return err
		}
		for _, p := range pages {
			cp := changedPage{ChangedPage: p, ChangeName: changeName(p.Change)}
			if p.Change != service.PageRemoved {
				cp.URL = row.URL + "/" + p.Path
			}
			row.Pages = append(row.Pages, cp)
		}
		row.More = total - len(pages)
		v.Revisions = append(v.Revisions, row)
	}
	if next != "" {
		v.Older = spaceAppPath(sp.ID, "revisions?from="+next)
	}
	// The sidebar shows the space's current tree.
	if v.Tree, err = a.readTree(r, sp, currentMode(sp.ID)); err != nil {
		return err
	}
	sh, err := a.spaceShell(r, sp, "Revisions · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section = "revisions"
	return a.render(w, r, http.StatusOK, "revisions", sh, v)
}

// revisionPath is the app's address of a revision of a space: its first
// page, and below it its other pages by their paths.
func revisionPath(spaceID, rev string) string { return spaceAppPath(spaceID, "revisions/"+rev) }

// revisionPage shows a page of a revision of a space, by its path; the
// revision's tree and first page at the revision's own address.
func (a *App) revisionPage(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	revID := r.PathValue("revisionId")
	hist, _, err := a.svc.SpaceHistory(r.Context(), sp.ID, revID, 1)
	if err != nil {
		return err
	}
	m := revisionMode(sp.ID, revID)
	v, err := a.readPage(r, sp, m, r.PathValue("path"))
	if err != nil {
		return err
	}
	v.Revision = &hist[0]
	title := "Revision · " + sp.Title
	if v.Page != nil {
		title = v.Page.Title + " · " + title
	}
	sh, err := a.spaceShell(r, sp, title)
	if err != nil {
		return err
	}
	sh.Section = "revisions"
	rv := &revisionPageView{pageView: v, Path: r.PathValue("path"), Current: sp.Revision == revID,
		CanEdit: levelFrom(r.Context()) >= edit, Kind: revisionKind(hist[0].Revision.Type)}
	return a.render(w, r, http.StatusOK, "revision_page", sh, rv)
}

// revisionPageView is a page at a revision, with the controls to restore
// it or the whole space.
type revisionPageView struct {
	*pageView
	// Path is the page's path at the revision ("" for its first page).
	Path string
	// Current says the revision is the space's current one: nothing to
	// restore.
	Current, CanEdit bool
	Kind             string
}

// revisionRow is a revision as the list shows it.
type revisionRow struct {
	service.RevisionView
	// Kind says how the revision came about; URL is its address.
	Kind, URL string
	// CompareURL compares it with the revision before it; "" for the
	// first.
	CompareURL string
	// Pages are the first pages it changed; More how many others.
	Pages []changedPage
	More  int
}

// revisionKind names how a revision of a type came about.
func revisionKind(t string) string {
	switch t {
	case quire.RevisionMerge:
		return "Merge"
	case quire.RevisionUpdate:
		return "Update from main"
	case quire.RevisionRollback:
		return "Rollback"
	case quire.RevisionComputed:
		return "Computed"
	}
	return "Edit"
}
