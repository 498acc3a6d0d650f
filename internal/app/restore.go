package app

import (
	"net/http"
	"strconv"

	"quire/internal/quire"
)

// restoreRevision proposes to restore the whole space to a revision: a
// new change request whose content is the revision's, which the person
// is taken to.
func (a *App) restoreRevision(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	cr, err := a.svc.RestoreSpaceRevision(ctx, userFrom(ctx), sp.ID, r.PathValue("revisionId"))
	if err != nil {
		return err
	}
	return seeOther(w, r, spaceAppPath(sp.ID, "changes/"+strconv.Itoa(cr.Number)), "restore-proposed")
}

// restoreRevisionPage proposes to restore one page, named by its path at
// the revision (the form's "path"; empty for the revision's first page),
// to its content then, as a new change request.
func (a *App) restoreRevisionPage(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	revID := r.PathValue("revisionId")
	if _, _, err := a.svc.SpaceHistory(ctx, sp.ID, revID, 1); quire.IsNotFound(err) {
		return quire.Invalid("revision", "revision %q does not exist in this space", revID)
	} else if err != nil {
		return err
	}
	m := revisionMode(sp.ID, revID)
	path := r.PostFormValue("path")
	rd, err := a.svc.ReadSpace(ctx, m.ref, path, m.addresses(sp.ID))
	if quire.IsNotFound(err) {
		return quire.Invalid("path", "the revision has no page at %q", path)
	} else if err != nil {
		return err
	}
	if rd.Page == nil {
		return quire.Invalid("path", "the revision has no page")
	}
	cr, err := a.svc.RestorePageRevision(ctx, userFrom(ctx), sp.ID, rd.Page.ID, revID)
	if err != nil {
		return err
	}
	return seeOther(w, r, spaceAppPath(sp.ID, "changes/"+strconv.Itoa(cr.Number)), "restore-proposed")
}
