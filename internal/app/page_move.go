package app

import (
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// movePage moves a page, from one of three forms: a step (direction: up,
// down, indent into the previous page, outdent after its parent); a
// destination (parent, "" for the top level, and position first or last;
// without a parent nothing moves);
// or a drop on another page (target, and place before, after or inside
// it), as the tree's drag and drop sends.
func (a *App) movePage(w http.ResponseWriter, r *http.Request) error {
	op, err := a.loadPageOp(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return quire.Invalid("form", "cannot be read: %v", err)
	}
	var into *string
	var at *int
	switch f := r.PostForm; {
	case f.Has("target"):
		into, at, err = op.dropAt(r, f.Get("target"), f.Get("place"))
	case f.Has("direction"):
		into, at, err = op.step(r, f.Get("direction"))
	case f.Has("parent"):
		into, at, err = op.moveTo(r, f.Get("parent"), f.Get("position"))
	default:
		err = quire.Invalid("direction", "choose where to move the page")
	}
	if err != nil {
		return a.refuse(w, r, op, "move", "", err)
	}
	to, err := a.writePageOp(w, r, op, "move", "", "Move "+op.page.Title,
		[]service.ContentChange{{Operation: service.OpUpdatePage, Page: op.page.ID, Into: into, At: at}})
	if err != nil || to == "" {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// step is a move of one step: up or down among the siblings, indent
// into the previous sibling (last there), outdent to just after the
// parent.
func (op *pageOp) step(r *http.Request, direction string) (*string, *int, error) {
	p := op.page
	sibs, i, err := op.siblings(r, p)
	if err != nil {
		return nil, nil, err
	}
	switch direction {
	case "up":
		if i == 0 {
			return nil, nil, quire.Invalid("direction", "the page is already the first at its level")
		}
		at := i - 1
		return &p.Parent, &at, nil
	case "down":
		if i >= len(sibs)-1 {
			return nil, nil, quire.Invalid("direction", "the page is already the last at its level")
		}
		at := i + 1
		return &p.Parent, &at, nil
	case "indent":
		if i == 0 || sibs[i-1].Type != quire.PageDocument {
			return nil, nil, quire.Invalid("direction", "there is no page before this one to move it into")
		}
		return &sibs[i-1].ID, nil, nil
	case "outdent":
		if p.Parent == "" {
			return nil, nil, quire.Invalid("direction", "the page is already at the top level")
		}
		parent, err := op.c.Page(r.Context(), p.Parent)
		if err != nil {
			return nil, nil, err
		}
		_, j, err := op.siblings(r, parent)
		if err != nil {
			return nil, nil, err
		}
		at := j + 1
		return &parent.Parent, &at, nil
	}
	return nil, nil, quire.Invalid("direction", "must be up, down, indent or outdent")
}

// moveTo is a move under a parent ("" for the top level), first or last.
func (op *pageOp) moveTo(r *http.Request, parent, position string) (*string, *int, error) {
	if parent != "" {
		p, err := op.findPage(r, "parent", parent)
		if err != nil {
			return nil, nil, err
		}
		if p.Type != quire.PageDocument && p.Type != quire.PageGroup {
			return nil, nil, quire.Invalid("parent", "a %s page cannot hold pages", p.Type)
		}
		if err := op.notUnderSelf(r, "parent", p.ID); err != nil {
			return nil, nil, err
		}
	}
	switch position {
	case "first":
		at := 0
		return &parent, &at, nil
	case "last", "":
		// Last: past every sibling but the page itself.
		kids, err := op.c.Children(r.Context(), parent)
		if err != nil {
			return nil, nil, err
		}
		at := len(kids)
		return &parent, &at, nil
	}
	return nil, nil, quire.Invalid("position", "must be first or last")
}

// dropAt is a move before, after or inside a target page.
func (op *pageOp) dropAt(r *http.Request, target, place string) (*string, *int, error) {
	t, err := op.findPage(r, "target", target)
	if err != nil {
		return nil, nil, err
	}
	if err := op.notUnderSelf(r, "target", t.ID); err != nil {
		return nil, nil, err
	}
	switch place {
	case "inside":
		if t.Type != quire.PageDocument && t.Type != quire.PageGroup {
			return nil, nil, quire.Invalid("target", "a %s page cannot hold pages", t.Type)
		}
		return &t.ID, nil, nil
	case "before", "after":
		sibs, err := op.c.Children(r.Context(), t.Parent)
		if err != nil {
			return nil, nil, err
		}
		// The index among the siblings without the page moved.
		at := 0
		for _, s := range sibs {
			if s.ID == t.ID {
				break
			}
			if s.ID != op.page.ID {
				at++
			}
		}
		if place == "after" {
			at++
		}
		return &t.Parent, &at, nil
	}
	return nil, nil, quire.Invalid("place", "must be before, after or inside")
}

// notUnderSelf refuses a destination that is the page moved or one of
// its subpages.
func (op *pageOp) notUnderSelf(r *http.Request, field, id string) error {
	under, err := op.isUnder(r, id, op.page.ID)
	if err != nil {
		return err
	}
	if under {
		return quire.Invalid(field, "a page cannot move into itself or its own subpages")
	}
	return nil
}
