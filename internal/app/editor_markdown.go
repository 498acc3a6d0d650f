package app

import (
	"errors"
	"html/template"
	"net/http"
	"strconv"

	"quire/internal/quire"
	"quire/internal/service"
)

// markdownForm is a page's whole-Markdown mode: its Markdown in a text
// area beside a preview drawn by the reader's renderer.
func (a *App) markdownForm(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	src, err := a.svc.PageMarkdown(r.Context(), e.ref(), e.pageID)
	if err != nil {
		return err
	}
	return a.markdownPage(w, r, e, http.StatusOK, src.Markdown, src.Base, nil)
}

// markdownPage draws the Markdown mode of a page holding md, opened at
// base, with its preview, and when a save met someone else's, both
// versions.
func (a *App) markdownPage(w http.ResponseWriter, r *http.Request, e *editing, status int, md, base string, c *service.EditConflict) error {
	v, err := a.editorPage(r, e)
	if err != nil {
		return err
	}
	v.Markdown, v.Base, v.Action, v.PreviewAction = md, base, e.pagePath()+"/markdown", e.pagePath()+"/preview"
	if c != nil {
		v.Conflict, v.Mine, v.Base = c, md, c.Base
	}
	if v.Preview, err = a.preview(r, e, md); err != nil {
		var qe *quire.Error
		if !errors.As(err, &qe) || qe.Code != quire.EINVALID {
			return err
		}
	}
	return a.renderEditor(w, r, status, "edit_markdown", e, v)
}

// saveMarkdown saves a page's whole Markdown when the page is still as
// it was opened (base), keeping the keys of the blocks left as they
// were; otherwise it answers 409 with both versions.
func (a *App) saveMarkdown(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	md := r.PostFormValue("markdown")
	var res service.EditResult
	ch, err := service.ReplacePage(e.sp.ID, e.pageID, r.PostFormValue("base"), md, &res)
	if err == nil {
		_, _, err = a.writeContent(r.Context(), e.sp, e.t, "Edit a page", []service.ContentChange{ch})
	}
	if err != nil {
		if quire.ErrorCode(err) != quire.ECONFLICT || quire.IsStale(err) {
			return a.editorError(w, r, pageField(err))
		}
		var c *service.EditConflict
		if !errors.As(err, &c) {
			src, rerr := a.svc.PageMarkdown(r.Context(), e.ref(), e.pageID)
			if rerr != nil {
				return rerr
			}
			c = &service.EditConflict{Theirs: src.Markdown, Base: src.Base}
		}
		if fromEditor(r) {
			return writeJSON(w, http.StatusConflict, map[string]any{"conflict": true, "theirs": c.Theirs, "base": c.Base,
				"mine": md, "message": quire.ErrorMessage(c)})
		}
		return a.markdownPage(w, r, e, http.StatusConflict, md, c.Base, c)
	}
	if fromEditor(r) {
		return writeJSON(w, http.StatusOK, map[string]any{"base": res.Base, "blocks": strconv.Itoa(len(res.Keys))})
	}
	return a.toPage(w, r, e)
}

// previewMarkdown draws a page's Markdown as the reader would, as a save
// would convert it: the HTML fragment to the editor's script, the
// Markdown mode's page showing it otherwise.
func (a *App) previewMarkdown(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	md := r.PostFormValue("markdown")
	if !fromEditor(r) {
		if _, err := service.PreviewDocument(r.Context(), e.sp.ID, md); err != nil {
			return err
		}
		return a.markdownPage(w, r, e, http.StatusOK, md, r.PostFormValue("base"), nil)
	}
	body, err := a.preview(r, e, md)
	if err != nil {
		return a.editorError(w, r, err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	_, err = w.Write([]byte(body))
	return err
}

// preview draws md as the page's body, with the page's resolvers.
func (a *App) preview(r *http.Request, e *editing, md string) (template.HTML, error) {
	doc, err := service.PreviewDocument(r.Context(), e.sp.ID, md)
	if err != nil {
		return "", err
	}
	rd, err := a.svc.ReadSpacePage(r.Context(), e.ref(), e.pageID, e.mode.addresses(e.sp.ID))
	if err != nil {
		return "", err
	}
	body, _, err := a.renderDocument(rd, doc)
	return body, err
}
