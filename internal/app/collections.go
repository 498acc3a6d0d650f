package app

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
	"quire/internal/service"
)

// collectionData is what a collection's page shows.
type collectionData struct {
	Collection *quire.Collection
	// Crumbs are the collections above it, from the root down.
	Crumbs   []*TreeNode
	Children []*TreeNode
	Level    quire.Level
	// CanCreate is whether the caller may create in it.
	CanCreate    bool
	Destinations []Destination
	Order        Order
	State        *FormState
}

// collectionPage is a collection's page: its title, description, what it
// holds in order, the way up, and for its admins the controls to rename,
// move and delete it.
func (a *App) collectionPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawCollection(w, r, http.StatusOK, nil)
}

// drawCollection draws the collection's page, with a form drawn again
// after an invalid submission when state is set.
func (a *App) drawCollection(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	c, err := a.svc.Collection(r.Context(), r.PathValue("collectionId"))
	if err != nil {
		return err
	}
	sh, err := a.shell(r, c.OrgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = c.Title, "collection"
	d := &collectionData{Collection: c, Level: levelFrom(r.Context()), Crumbs: pathTo(sh.Tree, c.ID), State: state}
	if n := findNode(sh.Tree, c.ID); n != nil {
		for _, ch := range n.Children {
			if (ch.Space && ch.Level >= service.ScopeSpace.Visible()) || (!ch.Space && ch.Level >= service.ScopeCollection.Visible()) {
				d.Children = append(d.Children, ch)
			}
		}
	}
	d.CanCreate = d.Level >= create && sh.Level >= create
	if d.Level >= admin {
		d.Destinations = destinations(sh.Tree, c.ID, c.Parent)
		d.Order = orderOf(sh.Tree, c.ID)
	}
	return a.render(w, r, status, "collection", sh, d)
}

// collectionPath is the address of a collection's page.
func collectionPath(id string) string { return "/app/c/" + id }

// newData is what the page of a new collection or space shows.
type newData struct {
	Kind   string
	Create CreateArgs
	// In is the collection it is created in, nil at the root.
	In *quire.Collection
}

// newItem is the page to create a collection or space (kind) at the root
// or in the collection parent; the same form the organization's and
// collections' pages hold, drawn alone, and again with an error.
func (a *App) newItem(w http.ResponseWriter, r *http.Request) error {
	kind := r.URL.Query().Get("kind")
	if kind != "space" {
		kind = "collection"
	}
	return a.drawNew(w, r, http.StatusOK, kind, r.URL.Query().Get("parent"), nil)
}

// drawNew draws the page of a new item.
func (a *App) drawNew(w http.ResponseWriter, r *http.Request, status int, kind, parent string, state *FormState) error {
	orgID := r.PathValue("organizationId")
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	d := newData{Kind: kind, Create: CreateArgs{OrgID: orgID, Parent: parent, State: state}}
	if parent != "" {
		c, err := a.svc.Collection(r.Context(), parent)
		if err == nil && c.OrgID == orgID && findNode(sh.Tree, parent) != nil {
			d.In = c
		} else {
			d.Create.Parent = ""
		}
	}
	sh.Title = "New " + kind
	return a.render(w, r, status, "collection_new", sh, d)
}

// createCollection creates a collection from the form, then shows it.
func (a *App) createCollection(w http.ResponseWriter, r *http.Request) error {
	parent := r.PostFormValue("parent")
	title, err := formTitle(r)
	var v *service.CollectionView
	if err == nil {
		v, err = a.svc.CreateCollection(r.Context(), userFrom(r.Context()), r.PathValue("organizationId"), title, parent)
	}
	if st, ok := formState("collection", err, title, ""); ok {
		return a.drawNew(w, r, http.StatusUnprocessableEntity, "collection", parent, st)
	} else if err != nil {
		return err
	}
	return seeOther(w, r, collectionPath(v.Collection.ID), "collection-created")
}

// updateCollection renames a collection and sets its description.
func (a *App) updateCollection(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("collectionId")
	title, err := formTitle(r)
	desc := strings.TrimSpace(r.PostFormValue("description"))
	if err == nil && utf8.RuneCountInString(desc) > maxDescription {
		err = quire.Invalid("description", "must be at most %d characters", maxDescription)
	}
	if err == nil {
		_, err = a.svc.UpdateCollection(r.Context(), userFrom(r.Context()), id, quire.CollectionUpdate{Title: &title, Description: &desc})
	}
	if st, ok := formState("rename", err, title, desc); ok {
		return a.drawCollection(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	return seeOther(w, r, collectionPath(id), "collection-renamed")
}

// moveCollection moves a collection into another (or the root) from the
// form's parent field, or up or down among its siblings from its
// direction field.
func (a *App) moveCollection(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id := r.PathValue("collectionId")
	c, err := a.svc.Collection(ctx, id)
	if err != nil {
		return err
	}
	parent, pos, err := a.moveTarget(r, c.OrgID, id)
	if err == nil {
		_, err = a.svc.MoveCollection(ctx, userFrom(ctx), id, parent, pos)
	}
	if quire.ErrorCode(err) == quire.ECONFLICT {
		// Moved where it already was: nothing to do.
		err = nil
	}
	if st, ok := formState("move", err, "", ""); ok {
		return a.drawCollection(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	return seeOther(w, r, collectionPath(id), "collection-moved")
}

// moveTarget reads a move form: a direction ("up" or "down") among the
// item's siblings, or else a parent ("" for the root).
func (a *App) moveTarget(r *http.Request, orgID, id string) (*string, service.Position, error) {
	if dir := r.PostFormValue("direction"); dir != "" {
		tree, err := a.tree(r, orgID)
		if err != nil {
			return nil, service.Position{}, err
		}
		pos, ok := anchorOf(tree, id, dir)
		if !ok {
			return nil, pos, quire.Invalid("position", "it cannot move %s from where it is", dir)
		}
		return nil, pos, nil
	}
	if _, ok := r.PostForm["parent"]; !ok {
		return nil, service.Position{}, quire.Invalid("parent", "must be chosen")
	}
	parent := r.PostFormValue("parent")
	return &parent, service.Position{}, nil
}

// deleteCollection deletes a collection once confirmed; the spaces inside
// go to Trash. Without the confirmation (no script to ask) it draws a
// page that asks.
func (a *App) deleteCollection(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c, err := a.svc.Collection(ctx, r.PathValue("collectionId"))
	if err != nil {
		return err
	}
	if r.PostFormValue("confirm") != "yes" {
		return a.confirmDelete(w, r, c.OrgID, "collection", c.Title, collectionPath(c.ID))
	}
	if _, err := a.svc.DeleteCollection(ctx, c.ID); err != nil {
		return err
	}
	if c.Parent != "" {
		return seeOther(w, r, collectionPath(c.Parent), "collection-deleted")
	}
	return seeOther(w, r, "/app/o/"+c.OrgID, "collection-deleted")
}

// confirmDelete draws the page asking to confirm deleting a space or a
// collection (kind).
func (a *App) confirmDelete(w http.ResponseWriter, r *http.Request, orgID, kind, title, back string) error {
	text := "The collection and the collections inside it are deleted. The spaces it holds go to Trash, where they can be restored for 7 days."
	if kind == "space" {
		text = "The space goes to Trash, where it can be restored for 7 days."
	}
	return a.drawConfirm(w, r, orgID, confirmView{Title: "Delete " + title, Heading: "Delete the " + kind + " “" + title + "”?",
		Text: text, Button: "Delete " + kind, Back: back, Danger: true})
}

// moveArgs are what the move forms need: Action is the address they
// post to.
type moveArgs struct {
	Kind, Action string
	Destinations []Destination
	Order        Order
	State        *FormState
}

// Move gives the collection's move forms.
func (d *collectionData) Move() moveArgs {
	return moveArgs{Kind: "collection", Action: collectionPath(d.Collection.ID) + "/move", Destinations: d.Destinations, Order: d.Order, State: d.State}
}
