package app

import (
	"errors"
	"net/http"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// convertAnswer is what a conversion answers: the Markdown to insert.
type convertAnswer struct {
	Markdown string `json:"markdown"`
}

// convertEditHTML converts the HTML of a paste (form field "html") into
// the dialect's Markdown, for the editor to insert. It writes nothing;
// it sits under the edit target because only people who may edit the
// space paste into its pages.
func (a *App) convertEditHTML(w http.ResponseWriter, r *http.Request) error {
	return a.jsonHandler(func(w http.ResponseWriter, r *http.Request) (any, error) {
		sp, err := spaceFrom(r)
		if err != nil {
			return nil, err
		}
		target, err := editTargetFrom(r)
		if err != nil {
			return nil, err
		}
		if err := a.checkEditTarget(r, sp, target); err != nil {
			return nil, err
		}
		// The form's encoding adds at most three bytes a byte, and a
		// little for the field's name.
		r.Body = http.MaxBytesReader(w, r.Body, 3*service.MaxPastedHTMLBytes+1024)
		if err := r.ParseForm(); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, &quire.Error{Code: quire.ETOOLARGE, Field: "html", Message: "the pasted content is too large to convert"}
			}
			return nil, quire.Invalid("html", "send the HTML as a form field")
		}
		html := r.PostForm.Get("html")
		if strings.TrimSpace(html) == "" {
			return nil, quire.Invalid("html", "paste some HTML to convert")
		}
		md, err := a.svc.PastedMarkdown(r.Context(), sp.ID, []byte(html))
		if err != nil {
			return nil, err
		}
		return convertAnswer{Markdown: md}, nil
	})(w, r)
}

// checkEditTarget refuses a target no write could go to: a change
// request that does not exist, is merged or archived, or "live" in a
// space whose content changes through change requests. Writes check the
// same in the service; this is for the addresses that do not write.
func (a *App) checkEditTarget(r *http.Request, sp *quire.Space, t editTarget) error {
	if t.live() {
		if sp.EditMode != quire.EditModeLive {
			return quire.Errorf(quire.EINVALID, "the space's content is changed through change requests, not live")
		}
		return nil
	}
	cr, err := a.svc.ChangeRequest(r.Context(), sp.ID, t.number)
	if err != nil {
		return err
	}
	switch cr.Status {
	case quire.CRMerged:
		return quire.Errorf(quire.EINVALID, "the change request is merged: start a new one")
	case quire.CRArchived:
		return quire.Errorf(quire.EINVALID, "the change request is archived: reopen it first")
	}
	return nil
}
