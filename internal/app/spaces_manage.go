package app

import (
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// spaceManageData is what a space's management page shows.
type spaceManageData struct {
	Space        *quire.Space
	Crumbs       []*TreeNode
	Destinations []Destination
	Order        Order
	State        *FormState
}

// spaceManagePath is the address of a space's management page, where its
// writes lead back to.
func spaceManagePath(id string) string { return spaceAppPath(id, "manage") }

// spaceManage is a space's management page: rename, move, reorder and
// delete it.
func (a *App) spaceManage(w http.ResponseWriter, r *http.Request) error {
	return a.drawSpaceManage(w, r, http.StatusOK, nil)
}

// drawSpaceManage draws the management page, with a form drawn again
// after an invalid submission when state is set. A deleted space has none.
func (a *App) drawSpaceManage(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, sp.OrgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section, sh.SpaceID = "Manage "+sp.Title, "space", sp.ID
	d := spaceManageData{Space: sp, Crumbs: pathTo(sh.Tree, sp.ID), State: state,
		Destinations: destinations(sh.Tree, sp.ID, sp.Parent), Order: orderOf(sh.Tree, sp.ID)}
	return a.render(w, r, status, "spaces_manage", sh, d)
}

// createSpace creates a space from the form, then shows it.
func (a *App) createSpace(w http.ResponseWriter, r *http.Request) error {
	parent := r.PostFormValue("parent")
	title, err := formTitle(r)
	var v *service.SpaceView
	if err == nil {
		v, err = a.svc.CreateSpace(r.Context(), userFrom(r.Context()), r.PathValue("organizationId"), service.SpaceInput{Title: title, Parent: parent})
	}
	if st, ok := formState("space", err, title, ""); ok {
		return a.drawNew(w, r, http.StatusUnprocessableEntity, "space", parent, st)
	} else if err != nil {
		return err
	}
	return seeOther(w, r, spaceManagePath(v.Space.ID), "space-created")
}

// renameSpace renames a space.
func (a *App) renameSpace(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("spaceId")
	title, err := formTitle(r)
	if err == nil {
		_, err = a.svc.UpdateSpace(r.Context(), userFrom(r.Context()), id, quire.SpaceUpdate{Title: &title})
	}
	if st, ok := formState("rename", err, title, ""); ok {
		return a.drawSpaceManage(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	return seeOther(w, r, spaceManagePath(id), "space-renamed")
}

// moveSpace moves a space into a collection or the root, or up or down
// among its siblings.
func (a *App) moveSpace(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	sp, err := anySpaceFrom(r)
	if err != nil {
		return err
	}
	id := sp.ID
	parent, pos, err := a.moveTarget(r, sp.OrgID, id)
	if err == nil {
		_, err = a.svc.MoveSpace(ctx, userFrom(ctx), id, parent, pos)
	}
	if quire.ErrorCode(err) == quire.ECONFLICT {
		err = nil
	}
	if st, ok := formState("move", err, "", ""); ok {
		return a.drawSpaceManage(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	return seeOther(w, r, spaceManagePath(id), "space-moved")
}

// deleteSpace moves a space to Trash once confirmed; without the
// confirmation it draws a page that asks.
func (a *App) deleteSpace(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	sp, err := anySpaceFrom(r)
	if err != nil {
		return err
	}
	if sp.DeletedAt == nil && r.PostFormValue("confirm") != "yes" {
		return a.confirmDelete(w, r, sp.OrgID, "space", sp.Title, spaceManagePath(sp.ID))
	}
	if _, err := a.svc.DeleteSpace(ctx, sp.ID); err != nil {
		return err
	}
	return seeOther(w, r, trashPath(sp.OrgID), "space-deleted")
}

// Move gives the space's move forms.
func (d spaceManageData) Move() moveArgs {
	return moveArgs{Kind: "space", Action: spaceAppPath(d.Space.ID, "move"), Destinations: d.Destinations, Order: d.Order, State: d.State}
}
