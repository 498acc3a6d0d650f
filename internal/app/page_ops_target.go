package app

import (
	"net/http"
	"slices"

	"quire/internal/quire"
	"quire/internal/service"
)

// pageOpsBase is the base of the addresses of the page operations on a
// target's content: /app/s/{spaceId}/~/edit/{target}/pages.
func pageOpsBase(spaceID string, t editTarget) string { return t.editPath(spaceID) + "/pages" }

// treeEditBase returns the base of the page operations' addresses for
// content m reads when the person may edit it there: a draft or open
// change request (cr, loaded when nil), or a live space's current
// content, for people with edit level on the space. Revisions and other
// content answer "".
func (a *App) treeEditBase(r *http.Request, sp *quire.Space, m pageMode, cr *quire.ChangeRequest) string {
	if levelFrom(r.Context()) < quire.LevelEdit || sp.EditMode == quire.EditModeLocked || m.ref.Revision != "" {
		return ""
	}
	if n := m.ref.ChangeRequest; n != "" {
		if cr == nil {
			var err error
			if cr, err = a.svc.ChangeRequest(r.Context(), sp.ID, n); err != nil {
				return ""
			}
		}
		if !slices.Contains(quire.WritableStatuses(), cr.Status) {
			return ""
		}
		return pageOpsBase(sp.ID, editTarget{number: n})
	}
	if sp.EditMode != quire.EditModeLive {
		return ""
	}
	return pageOpsBase(sp.ID, editTarget{})
}

// pageOp is what every page operation works on: the space, the target
// its writes go to, the content as the target has it now, and the page
// the address names (nil for the addresses of no page).
type pageOp struct {
	sp   *quire.Space
	t    editTarget
	m    pageMode
	c    *service.Content
	page *quire.RevisionPage
}

// targetMode is the content a target's writes change, at its addresses.
func targetMode(spaceID string, t editTarget) pageMode {
	if t.live() {
		return currentMode(spaceID)
	}
	return changeMode(spaceID, t.number)
}

// loadPageOp reads what a page operation's address names; a live target
// of a space that is not live names nothing, nor does a {pageId} that is
// not a page of the target's content.
func (a *App) loadPageOp(r *http.Request) (*pageOp, error) {
	sp, err := spaceFrom(r)
	if err != nil {
		return nil, err
	}
	t, err := editTargetFrom(r)
	if err != nil {
		return nil, err
	}
	if t.live() && sp.EditMode != quire.EditModeLive {
		return nil, quire.NotFound("change request")
	}
	op := &pageOp{sp: sp, t: t, m: targetMode(sp.ID, t)}
	if op.c, err = a.svc.Content(r.Context(), op.m.ref); err != nil {
		return nil, err
	}
	if id := r.PathValue("pageId"); id != "" {
		p, err := op.c.Page(r.Context(), id)
		if quire.IsNotFound(err) || (err == nil && p.Type != quire.PageDocument) {
			return nil, quire.NotFound("page")
		} else if err != nil {
			return nil, err
		}
		op.page = p
	}
	return op, nil
}

// base is the base of the operation's addresses.
func (op *pageOp) base() string { return pageOpsBase(op.sp.ID, op.t) }

// pageURL is the address of a page of the target's content after a
// write: its path read again from content c; the content's first page
// when id is gone.
func (a *App) pageURL(r *http.Request, op *pageOp, id string) (string, error) {
	c, err := a.svc.Content(r.Context(), op.m.ref)
	if err != nil {
		return "", err
	}
	p, err := c.Page(r.Context(), id)
	if quire.IsNotFound(err) {
		return op.m.base, nil
	} else if err != nil {
		return "", err
	}
	path, err := c.Path(r.Context(), p)
	if err != nil {
		return "", err
	}
	return op.m.base + path, nil
}

// isUnder reports whether page id is the page anc or lies below it in
// content c.
func (op *pageOp) isUnder(r *http.Request, id, anc string) (bool, error) {
	for depth := 0; id != "" && depth < 1000; depth++ {
		if id == anc {
			return true, nil
		}
		p, err := op.c.Page(r.Context(), id)
		if err != nil {
			return false, err
		}
		id = p.Parent
	}
	return false, nil
}

// siblings lists the pages beside p (p included), in order, and p's
// index among them.
func (op *pageOp) siblings(r *http.Request, p *quire.RevisionPage) ([]*quire.RevisionPage, int, error) {
	sibs, err := op.c.Children(r.Context(), p.Parent)
	if err != nil {
		return nil, 0, err
	}
	for i, s := range sibs {
		if s.ID == p.ID {
			return sibs, i, nil
		}
	}
	return sibs, len(sibs), nil
}

// findPage reads a page of the target's content named by a form field:
// EINVALID on field when there is none.
func (op *pageOp) findPage(r *http.Request, field, id string) (*quire.RevisionPage, error) {
	p, err := op.c.Page(r.Context(), id)
	if quire.IsNotFound(err) {
		return nil, quire.Invalid(field, "names no page of this content")
	}
	return p, err
}
