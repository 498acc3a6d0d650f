package app

import (
	"html"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"quire/internal/quire"
)

// pageEditing is what a page view offers the people who may write it:
// "Edit", which opens their draft change request, and in-place editing
// of the content shown when it is writable (a draft or open change
// request's, or a live space's main content).
type pageEditing struct {
	// Start is the address of the "Edit" form; empty when not offered.
	Start string
	// EditPath is the base of the page's edit addresses
	// (…/~/edit/{target}/pages/{pageId}); empty when the content shown
	// is not editable in place.
	EditPath string
	// Live says that edits in place change the space's main content.
	Live bool
}

// editingFor returns what a page view of content m offers the caller,
// nil for nothing: people with edit level, in a space that is not
// locked. The blocks of a page editable in place get their "Edit block"
// links.
func (a *App) editingFor(r *http.Request, sp *quire.Space, m pageMode, v *pageView) *pageEditing {
	if levelFrom(r.Context()) < quire.LevelEdit || sp.EditMode == quire.EditModeLocked || m.ref.Revision != "" {
		return nil
	}
	e := &pageEditing{}
	var t editTarget
	switch {
	case m.ref.ChangeRequest != "":
		cr := v.ChangeRequest
		if cr == nil || !slices.Contains(quire.WritableStatuses(), cr.Status) {
			return nil
		}
		t = editTarget{number: m.ref.ChangeRequest}
	default:
		e.Start = spaceAppPath(sp.ID, "edit")
		if sp.EditMode != quire.EditModeLive {
			return e
		}
		e.Live = true
	}
	if v.Page == nil {
		return e
	}
	e.EditPath = t.editPath(sp.ID) + "/pages/" + v.Page.ID
	v.Page.Body = blockControls(v.Page.Body, e.EditPath)
	return e
}

// blockMark is how the reader's renderer opens a top-level block drawn
// with its key (reader.Page.BlockKeys).
const blockMark = `<div class="block" data-block="`

// blockControls adds to each keyed block of a page body its "Edit block"
// link, to the block's edit form: the editor's script opens the block in
// place from it, and without scripts it leads to the form.
func blockControls(body template.HTML, editPath string) template.HTML {
	s := string(body)
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for {
		i := strings.Index(s, blockMark)
		if i < 0 {
			break
		}
		start := i + len(blockMark)
		end := strings.Index(s[start:], `">`)
		if end < 0 {
			break
		}
		escKey := s[start : start+end]
		b.WriteString(s[:start+end+2])
		key := html.UnescapeString(escKey)
		b.WriteString(`<p class="block-tools"><a class="block-edit" href="`)
		b.WriteString(template.HTMLEscapeString(editPath + "/blocks/" + url.PathEscape(key)))
		b.WriteString(`" aria-label="Edit block">Edit</a></p>`)
		s = s[start+end+2:]
	}
	b.WriteString(s)
	// The renderer escaped every value; the links are built escaped.
	return template.HTML(b.String())
}
