package app

import (
	"net/http"

	"quire/internal/service"
)

// spacePDF sends the person to a signed link of the PDF of the space's
// current content.
func (a *App) spacePDF(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	return a.pdfRedirect(w, r, service.PDFRequest{SpaceID: sp.ID})
}

// changeRequestPDF sends the person to a signed link of the PDF of a
// change request's content.
func (a *App) changeRequestPDF(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	cr, err := a.svc.ChangeRequest(r.Context(), sp.ID, n)
	if err != nil {
		return err
	}
	return a.pdfRedirect(w, r, service.PDFRequest{SpaceID: sp.ID, ChangeRequest: cr.ID})
}

// pdfRedirect answers a redirect to the signed, expiring link the API
// serves the PDF at: the PDF is drawn when the link is followed, and the
// link works without the session, as a download should.
func (a *App) pdfRedirect(w http.ResponseWriter, r *http.Request, req service.PDFRequest) error {
	if a.cfg.PDFs == nil {
		return notAvailable("PDF export is")
	}
	l, err := a.cfg.PDFs.Link(r.Context(), req)
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/v1/"+l.Path()+"?"+l.Query(), http.StatusSeeOther)
	return nil
}
