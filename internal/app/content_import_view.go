package app

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"quire/internal/importer"
	"quire/internal/quire"
	"quire/internal/service"
)

// importSources are the kinds of content an import reads from a URL, as
// the API's import accepts and the importer supports.
func importSources() []importSource {
	return []importSource{
		{importer.Source("website"), "A website (its pages are crawled from this address)"},
		{importer.Source("markdown"), "A Markdown file"},
		{importer.Source("html"), "An HTML file"},
		{importer.Source("zip"), "A zip of Markdown or HTML files"},
	}
}

// importSource is a choice of the import form's source.
type importSource struct {
	Value importer.Source
	Label string
}

// Targets of an import besides an existing change request.
const (
	importIntoSpace = "space"
	importIntoNew   = "new"
)

// importForm is the content import form as typed: the URL form's, or
// the upload form's (Upload set, File the name of the file sent).
type importForm struct {
	URL, Source, Into string
	Upload            bool
	File              string
}

// intoOption is a choice of where an import goes.
type intoOption struct {
	Value, Label string
	Selected     bool
}

// importResult is what the import just made, read back from the
// redirect's query.
type importResult struct {
	Imported, Total int
	// Number is the change request it went to; 0 when merged into the
	// space.
	Number int
}

// contentImportData is what a space's content import page shows.
type contentImportData struct {
	Space   *quire.Space
	Sources []importSource
	// Drafts are the change requests the import may go to.
	Drafts []*quire.ChangeRequest
	Form   importForm
	State  *FormState
	Result *importResult
	Base   string
}

// IntoOptions are the places an import may go: the space, a new change
// request, or one of the drafts and open change requests, the one of the
// form as typed selected.
func (d contentImportData) IntoOptions() []intoOption {
	out := []intoOption{{Value: importIntoSpace, Label: "The space (merged at once)"}, {Value: importIntoNew, Label: "A new change request"}}
	for _, cr := range d.Drafts {
		subject := cr.Subject
		if subject == "" {
			subject = "Untitled change request"
		}
		out = append(out, intoOption{Value: cr.ID, Label: "Change request #" + strconv.Itoa(cr.Number) + ": " + subject})
	}
	for i := range out {
		out[i].Selected = out[i].Value == d.Form.Into
	}
	return out
}

// MaxFile is the most an uploaded file may hold, for people.
func (contentImportData) MaxFile() string { return sizeText(service.MaxInlineFileBytes) }

// importsService returns the content import service, or says the server
// has none.
func (a *App) importsService() (*service.ContentImports, error) {
	if a.cfg.Imports == nil {
		return nil, notAvailable("Content import is")
	}
	return a.cfg.Imports, nil
}

// contentImportPath is the address of a space's content import page.
func contentImportPath(spaceID string) string { return spaceAppPath(spaceID, "import") }

// contentImportPage shows the content import form, and what the last
// import made when the page is the one it led back to.
func (a *App) contentImportPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawContentImport(w, r, http.StatusOK, importForm{Source: "website", Into: importIntoSpace}, nil)
}

// drawContentImport draws the content import page with the form as f.
func (a *App) drawContentImport(w http.ResponseWriter, r *http.Request, status int, f importForm, state *FormState) error {
	if _, err := a.importsService(); err != nil {
		return err
	}
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	d := contentImportData{Space: sp, Sources: importSources(), Form: f, State: state, Base: contentImportPath(sp.ID)}
	for _, s := range []quire.ChangeRequestStatus{quire.CRDraft, quire.CROpen} {
		l, err := a.svc.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: sp.ID, Status: s}, quire.Page{Limit: quire.MaxLimit})
		if err != nil {
			return err
		}
		d.Drafts = append(d.Drafts, l.Items...)
	}
	if state == nil {
		d.Result = importResultOf(r.URL.Query())
	}
	sh, err := a.shell(r, sp.OrgID)
	if err != nil {
		return err
	}
	sh.Title, sh.SpaceID = "Import content · "+sp.Title, sp.ID
	return a.render(w, r, status, "content_import", sh, d)
}

// importResultOf reads the counts an import redirected with; nil when
// there are none.
func importResultOf(q url.Values) *importResult {
	imported, err1 := strconv.Atoi(q.Get("imported"))
	total, err2 := strconv.Atoi(q.Get("total"))
	if err1 != nil || err2 != nil || imported < 0 || total < 0 {
		return nil
	}
	n, _ := strconv.Atoi(q.Get("change"))
	return &importResult{Imported: imported, Total: total, Number: max(n, 0)}
}

// importContent imports content from a URL into the space (through a
// change request merged at once), a new change request or an open one,
// then shows how many resources it imported.
func (a *App) importContent(w http.ResponseWriter, r *http.Request) error {
	imports, err := a.importsService()
	if err != nil {
		return err
	}
	f := importForm{URL: strings.TrimSpace(r.PostFormValue("url")), Source: r.PostFormValue("source"), Into: r.PostFormValue("into")}
	return a.runImport(w, r, f, "import", checkImportForm(f), "Import from "+importSubject(f.URL),
		func(ctx context.Context, u *quire.User, spaceID, crID string) (*service.ImportResult, error) {
			return imports.Import(ctx, u, spaceID, crID, importer.Source(f.Source), f.URL)
		})
}

// importFunc imports into a space, or a change request of it when crID
// is given.
type importFunc func(ctx context.Context, u *quire.User, spaceID, crID string) (*service.ImportResult, error)

// runImport runs an import of the form f (named form on the page) once
// checked (checked is the form's own check): it makes the new change
// request the form asks for, named subject, or finds the one chosen,
// imports, and leads back to the page with the counts. A refused form is
// drawn again naming its field, and the change request made for it is
// archived.
func (a *App) runImport(w http.ResponseWriter, r *http.Request, f importForm, form string, checked error, subject string, do importFunc) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	u := userFrom(ctx)
	err = checked
	var cr *quire.ChangeRequest
	if err == nil {
		switch f.Into {
		case importIntoSpace:
		case importIntoNew:
			cr, err = a.svc.CreateChangeRequest(ctx, u, sp.ID, subject)
		default:
			cr, err = a.svc.ChangeRequest(ctx, sp.ID, f.Into)
			if quire.IsNotFound(err) {
				err = quire.Invalid("into", "choose one of the listed change requests")
			}
		}
	}
	var res *service.ImportResult
	if err == nil {
		crID := ""
		if cr != nil {
			crID = cr.ID
		}
		res, err = do(ctx, u, sp.ID, crID)
	}
	if err != nil && cr != nil && f.Into == importIntoNew {
		// The change request made for a failed import holds nothing:
		// it is archived rather than left among the drafts.
		archived := quire.CRArchived
		if _, aerr := a.svc.UpdateChangeRequest(ctx, sp.ID, cr.ID, service.ChangeRequestPatch{Status: &archived}); aerr != nil {
			a.log.WarnContext(ctx, "archiving the change request of a failed import", "space", sp.ID, "err", aerr)
		}
	}
	if field, msg, ok := formError(err); ok {
		st := &FormState{Form: form, Field: field, Message: importFieldLabel(field) + " " + msg + "."}
		return a.drawContentImport(w, r, http.StatusUnprocessableEntity, f, st)
	} else if quire.ErrorCode(err) == quire.ETOOLARGE {
		var qe *quire.Error
		errors.As(err, &qe)
		st := &FormState{Form: form, Field: qe.Field, Message: importFieldLabel(qe.Field) + " " + qe.Message + "."}
		return a.drawContentImport(w, r, http.StatusRequestEntityTooLarge, f, st)
	} else if err != nil {
		return err
	}
	q := url.Values{"imported": {strconv.Itoa(res.Imported)}, "total": {strconv.Itoa(res.Total)}}
	if cr != nil {
		q.Set("change", strconv.Itoa(cr.Number))
	}
	http.Redirect(w, r, contentImportPath(sp.ID)+"?"+q.Encode(), http.StatusSeeOther)
	return nil
}

// checkImportForm checks the form's URL and source before anything is
// made.
func checkImportForm(f importForm) error {
	if f.URL == "" {
		return quire.Invalid("url", "must not be empty")
	}
	if len(f.URL) > maxGitURL {
		return quire.Invalid("url", "must be at most %d characters", maxGitURL)
	}
	if u, err := url.Parse(f.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return quire.Invalid("url", "must be an http:// or https:// address")
	}
	for _, s := range importSources() {
		if string(s.Value) == f.Source {
			return nil
		}
	}
	return quire.Invalid("source", "choose one of the listed kinds of content")
}

// importSubject is the address an import's change request is named
// after, without credentials and bounded to a subject's length.
func importSubject(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		u.User = nil
		raw = u.Host + u.Path
	}
	return clipSubject(raw)
}

// clipSubject bounds what an import's change request is named after.
func clipSubject(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return s
}

// importFieldLabel names a field of the import form in its error
// message.
func importFieldLabel(field string) string {
	switch field {
	case "url":
		return "URL"
	case "source":
		return "Kind of content"
	case "into":
		return "Import into"
	case "subject":
		return "The change request's subject"
	case "file":
		return "File"
	}
	return "The import"
}
