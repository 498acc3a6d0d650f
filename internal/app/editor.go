package app

import (
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/web"
)

// editorHeader marks the editor script's requests: they get JSON (or an
// HTML fragment) instead of pages and redirects.
const editorHeader = "X-Quire-Editor"

// fromEditor reports whether the editor's script sent the request.
func fromEditor(r *http.Request) bool { return r.Header.Get(editorHeader) != "" }

// editorView is what the editor's own pages show (edit_block,
// edit_markdown): the form of a block or a page's Markdown, and when a
// save met someone else's, both versions.
type editorView struct {
	spaceSidebar
	// Title is the page's title; PageURL the page's view in the content
	// edited, where saving leads.
	Title, PageURL string
	// Action is where the form posts; TargetPath the edit target's base
	// (uploads and conversions sit under it).
	Action, TargetPath string
	// Live says the form edits a live space's main content.
	Live bool
	// Key, Count and After are the block edited, the run of blocks it
	// covers and, for a new block, the block it follows ("" for the
	// end); Insert marks a new block's form.
	Key, After string
	Count      int
	Insert     bool
	// DeleteAction is the block's delete form; PreviewAction where the
	// page's Markdown is previewed.
	DeleteAction, PreviewAction string
	// Markdown and Base are the text in the form and the version it
	// was opened from.
	Markdown, Base string
	// Preview is the page drawn from Markdown (the page's form).
	Preview template.HTML
	// Conflict is the version saved meanwhile by someone else, beside
	// Mine, the text this save sent.
	Conflict *service.EditConflict
	Mine     string
}

// editing is what an edit address names: the space, the target and its
// content, and the page.
type editing struct {
	sp     *quire.Space
	t      editTarget
	mode   pageMode
	pageID string
}

// ref is the content the edit reads.
func (e *editing) ref() service.ContentRef { return e.mode.ref }

// editingFrom reads the space, {target} and {pageId} of an edit address.
func editingFrom(r *http.Request) (*editing, error) {
	sp, err := spaceFrom(r)
	if err != nil {
		return nil, err
	}
	t, err := editTargetFrom(r)
	if err != nil {
		return nil, err
	}
	e := &editing{sp: sp, t: t, pageID: r.PathValue("pageId"), mode: currentMode(sp.ID)}
	if !t.live() {
		e.mode = changeMode(sp.ID, t.number)
	}
	return e, nil
}

// startEditing is "Edit": it opens the person's draft change request in
// the space (a new one when they have none) on the page they were
// reading.
func (a *App) startEditing(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	if sp.EditMode == quire.EditModeLocked {
		return quire.Errorf(quire.EINVALID, "the space is locked: its content cannot change")
	}
	p := strings.Trim(r.PostFormValue("path"), "/")
	if p != "" && (path.Clean(p) != p || strings.HasPrefix(p, "..") || strings.ContainsAny(p, "~\\?#")) {
		return quire.Invalid("path", "not a page path")
	}
	cr, err := a.svc.DraftChangeRequest(r.Context(), userFrom(r.Context()), sp.ID)
	if err != nil {
		return err
	}
	http.Redirect(w, r, changeMode(sp.ID, strconv.Itoa(cr.Number)).base+p, http.StatusSeeOther)
	return nil
}

// blockCount reads the number of blocks an edit covers ("blocks"; one
// when not given).
func blockCount(v string) (int, error) {
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > service.MaxEditBlocks {
		return 0, quire.Invalid("blocks", "give a number of blocks from 1 to %d", service.MaxEditBlocks)
	}
	return n, nil
}

// blockForm opens a block (or the run of blocks an earlier save of it
// made) for editing: its Markdown and base, as JSON to the editor's
// script, or as a form page.
func (a *App) blockForm(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	n, err := blockCount(r.URL.Query().Get("blocks"))
	if err != nil {
		return err
	}
	src, err := a.svc.PageBlocks(r.Context(), e.ref(), e.pageID, r.PathValue("key"), n)
	if err != nil {
		return a.editorError(w, r, err)
	}
	if fromEditor(r) {
		return writeJSON(w, http.StatusOK, map[string]any{"key": src.Key, "blocks": src.Count, "markdown": src.Markdown, "base": src.Base})
	}
	v, err := a.editorPage(r, e)
	if err != nil {
		return err
	}
	v.Key, v.Count, v.Markdown, v.Base = src.Key, src.Count, src.Markdown, src.Base
	v.Action = e.blockPath(src.Key)
	v.DeleteAction = v.Action + "/delete"
	return a.renderEditor(w, r, http.StatusOK, "edit_block", e, v)
}

// newBlockForm is the form of a new block after the block "after" (at
// the page's end without it), for browsers without the editor's script.
func (a *App) newBlockForm(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	after := r.URL.Query().Get("after")
	if _, err := a.svc.PageMarkdown(r.Context(), e.ref(), e.pageID); err != nil {
		return err
	}
	v, err := a.editorPage(r, e)
	if err != nil {
		return err
	}
	v.Insert, v.After, v.Action = true, after, e.pagePath()+"/blocks"
	return a.renderEditor(w, r, http.StatusOK, "edit_block", e, v)
}

// saveBlock replaces a block (or the run of blocks from it) by the
// blocks its Markdown makes, when it is still as it was opened;
// otherwise it answers 409 with both versions.
func (a *App) saveBlock(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	n, err := blockCount(r.PostFormValue("blocks"))
	if err != nil {
		return a.editorError(w, r, err)
	}
	key, md := r.PathValue("key"), r.PostFormValue("markdown")
	var res service.EditResult
	ch, err := service.ReplaceBlocks(e.sp.ID, e.pageID, key, n, r.PostFormValue("base"), md, &res)
	if err == nil {
		_, _, err = a.writeContent(r.Context(), e.sp, e.t, "Edit a block", []service.ContentChange{ch})
	}
	if err != nil {
		return a.editFailed(w, r, e, err, key, n, md)
	}
	return a.blocksSaved(w, r, e, &res)
}

// insertBlock adds the blocks a Markdown makes after the block "after",
// or at the page's end without it.
func (a *App) insertBlock(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	after, md := r.PostFormValue("after"), r.PostFormValue("markdown")
	var res service.EditResult
	ch, err := service.InsertBlocks(e.sp.ID, e.pageID, after, md, &res)
	if err == nil {
		_, _, err = a.writeContent(r.Context(), e.sp, e.t, "Add a block", []service.ContentChange{ch})
	}
	if err != nil {
		var c *service.EditConflict
		if errors.As(err, &c) {
			// The block to follow is gone: say so, keeping the text.
			c.Gone = true
			return a.conflict(w, r, e, c, "", 1, md)
		}
		return a.editorError(w, r, pageField(err))
	}
	return a.blocksSaved(w, r, e, &res)
}

// deleteBlock removes a block (or the run of blocks from it) when it is
// still as it was opened.
func (a *App) deleteBlock(w http.ResponseWriter, r *http.Request) error {
	e, err := editingFrom(r)
	if err != nil {
		return err
	}
	n, err := blockCount(r.PostFormValue("blocks"))
	if err != nil {
		return a.editorError(w, r, err)
	}
	key := r.PathValue("key")
	ch, err := service.DeleteBlocks(e.pageID, key, n, r.PostFormValue("base"))
	if err == nil {
		_, _, err = a.writeContent(r.Context(), e.sp, e.t, "Remove a block", []service.ContentChange{ch})
	}
	if err != nil {
		return a.editFailed(w, r, e, err, key, n, "")
	}
	if fromEditor(r) {
		return writeJSON(w, http.StatusOK, map[string]any{"deleted": true})
	}
	return a.toPage(w, r, e)
}

// blocksSaved answers a block save: the new blocks drawn, with their
// keys and base, to the editor's script; the page otherwise.
func (a *App) blocksSaved(w http.ResponseWriter, r *http.Request, e *editing, res *service.EditResult) error {
	if !fromEditor(r) {
		return a.toPage(w, r, e)
	}
	rd, err := a.svc.ReadSpacePage(r.Context(), e.ref(), e.pageID, e.mode.addresses(e.sp.ID))
	if err != nil {
		return a.editorError(w, r, err)
	}
	body, _, err := a.renderDocument(rd, &document.Document{Nodes: res.Blocks})
	if err != nil {
		return err
	}
	body = blockControls(body, e.pagePath())
	return writeJSON(w, http.StatusOK, map[string]any{"keys": res.Keys, "base": res.Base, "html": string(body)})
}

// editFailed answers a block save or delete that failed: a conflict with
// both versions, or the error.
func (a *App) editFailed(w http.ResponseWriter, r *http.Request, e *editing, err error, key string, n int, mine string) error {
	if quire.ErrorCode(err) != quire.ECONFLICT || quire.IsStale(err) {
		return a.editorError(w, r, pageField(err))
	}
	var c *service.EditConflict
	if !errors.As(err, &c) {
		// A live save lost to another one merged first: theirs is what
		// the content holds now.
		c = &service.EditConflict{}
		src, rerr := a.svc.PageBlocks(r.Context(), e.ref(), e.pageID, key, 1)
		switch {
		case quire.IsNotFound(rerr):
			c.Gone = true
		case rerr != nil:
			return rerr
		default:
			c.Theirs, c.Base = src.Markdown, src.Base
		}
	}
	return a.conflict(w, r, e, c, key, n, mine)
}

// conflict answers 409 with both versions of a block: to the editor's
// script as JSON, otherwise as the block's form showing both.
func (a *App) conflict(w http.ResponseWriter, r *http.Request, e *editing, c *service.EditConflict, key string, n int, mine string) error {
	if fromEditor(r) {
		return writeJSON(w, http.StatusConflict, map[string]any{"conflict": true, "gone": c.Gone, "theirs": c.Theirs,
			"base": c.Base, "mine": mine, "message": quire.ErrorMessage(c)})
	}
	v, err := a.editorPage(r, e)
	if err != nil {
		return err
	}
	v.Conflict, v.Mine, v.Markdown, v.Base, v.Key, v.Count = c, mine, mine, c.Base, key, n
	v.Action = e.blockPath(key)
	if c.Gone || key == "" {
		// The block is gone: keeping mine adds it at the page's end.
		v.Insert, v.Action, v.Key = true, e.pagePath()+"/blocks", ""
	} else {
		v.DeleteAction = v.Action + "/delete"
	}
	return a.renderEditor(w, r, http.StatusConflict, "edit_block", e, v)
}

// toPage sends the browser back to the page edited.
func (a *App) toPage(w http.ResponseWriter, r *http.Request, e *editing) error {
	rd, err := a.svc.ReadSpacePage(r.Context(), e.ref(), e.pageID, e.mode.addresses(e.sp.ID))
	if err != nil {
		return err
	}
	http.Redirect(w, r, e.mode.base+rd.Path, http.StatusSeeOther)
	return nil
}

// pagePath is the base of the page's edit addresses.
func (e *editing) pagePath() string { return e.t.editPath(e.sp.ID) + "/pages/" + e.pageID }

// blockPath is the edit address of a block of the page.
func (e *editing) blockPath(key string) string {
	return e.pagePath() + "/blocks/" + url.PathEscape(key)
}

// editorPage starts the view of an editor page: the space's sidebar, the
// page's title and address.
func (a *App) editorPage(r *http.Request, e *editing) (*editorView, error) {
	p, err := a.svc.ReadSpacePage(r.Context(), e.ref(), e.pageID, e.mode.addresses(e.sp.ID))
	if err != nil {
		return nil, err
	}
	tree, err := a.readTree(r, e.sp, e.mode)
	if err != nil {
		return nil, err
	}
	v := &editorView{spaceSidebar: spaceSidebar{Space: e.sp, ChangeRequest: p.ChangeRequest, Tree: tree},
		Title: p.Page.Title, PageURL: e.mode.base + p.Path, TargetPath: e.t.editPath(e.sp.ID), Live: e.t.live()}
	return v, nil
}

// renderEditor draws an editor page in the space's frame.
func (a *App) renderEditor(w http.ResponseWriter, r *http.Request, status int, name string, e *editing, v *editorView) error {
	sh, err := a.spaceShell(r, e.sp, "Edit "+v.Title+" · "+e.sp.Title)
	if err != nil {
		return err
	}
	if !e.t.live() {
		sh.Section = "changes"
	}
	return a.render(w, r, status, name, sh, v)
}

// editorError answers an error: as JSON to the editor's script (its
// message, and the field it is about), otherwise as the error page.
func (a *App) editorError(w http.ResponseWriter, r *http.Request, err error) error {
	if !fromEditor(r) {
		return err
	}
	code := quire.ErrorCode(err)
	if code == quire.EINTERNAL {
		return err
	}
	var field string
	var qe *quire.Error
	if errors.As(err, &qe) {
		field = qe.Field
	}
	return writeJSON(w, web.StatusOf(code), map[string]any{"error": quire.ErrorMessage(err), "field": field})
}

// pageField names the page of an edit "pageId" when the content write
// found no such page.
func pageField(err error) error {
	var qe *quire.Error
	if errors.As(err, &qe) && qe.Code == quire.EINVALID && strings.HasPrefix(qe.Field, "changes[0].page") {
		return quire.Invalid("pageId", "there is no such page here")
	}
	return err
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, err = w.Write(b)
	return err
}
