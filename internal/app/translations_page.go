package app

import (
	"net/http"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// translationRefresh is how often, in seconds, a translation's page
// reloads while a run is queued or under way.
const translationRefresh = 3

// editedPage is a target page the last run left alone because it was
// edited by hand: its title and address when the caller may read the
// target and it is still there.
type editedPage struct {
	ID, Title, URL string
}

// translationData is what a translation's page shows.
type translationData struct {
	OrgID string
	Row   translationRow
	// Edited are the target's pages the last run left alone.
	Edited []editedPage
	// Instructions are the instructions as the form shows them; Rich
	// says they hold more than plain paragraphs, which saving from the
	// form turns into plain text.
	Instructions string
	Rich         bool
	// CanEdit offers the forms: run, instructions, delete.
	CanEdit bool
	// Refresh is the reload delay in seconds while a run is queued or
	// under way, 0 otherwise; the page reloads without the notice it was
	// redirected with.
	Refresh int
	State   *FormState
	Notice  string
}

// Paragraphs are the instructions' paragraphs, for those who read them
// without the form.
func (d translationData) Paragraphs() []string {
	if strings.TrimSpace(d.Instructions) == "" {
		return nil
	}
	return strings.Split(d.Instructions, "\n\n")
}

// translationPage answers a translation's page.
func (a *App) translationPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawTranslation(w, r, http.StatusOK, nil)
}

// drawTranslation draws a translation's page; when state holds a refused
// change's error, the instructions as typed beside its message.
func (a *App) drawTranslation(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	tr, err := a.translationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID := r.PathValue("organizationId")
	v, err := tr.Get(ctx, orgID, r.PathValue("translationId"))
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	row := newTranslationRow(orgID, v, spaceLinks(sh.Tree))
	sh.Title, sh.Section = translationTitle(row), "translations"
	d := translationData{OrgID: orgID, Row: row, CanEdit: levelFrom(ctx) >= create, State: state, Notice: translationsNotice(r)}
	d.Instructions, d.Rich = instructionsText(v.Instructions)
	if state != nil {
		d.Instructions = r.PostFormValue("instructions")
	}
	if row.Busy() {
		d.Refresh = translationRefresh
	}
	if d.Edited, err = a.editedPages(r, row); err != nil {
		return err
	}
	return a.render(w, r, status, "translation", sh, d)
}

// translationTitle names a translation: its source and the language it
// goes into.
func translationTitle(row translationRow) string {
	src := row.Source.Title
	if src == "" {
		src = "A space you cannot open"
	}
	return src + " in " + row.LanguageName()
}

// editedPages names the target pages the last run left alone, with
// their addresses when the caller may read the target.
func (a *App) editedPages(r *http.Request, row translationRow) ([]editedPage, error) {
	out := make([]editedPage, 0, len(row.EditedPages))
	for _, id := range row.EditedPages {
		out = append(out, editedPage{ID: id})
	}
	if len(out) == 0 || row.Target.URL == "" {
		return out, nil
	}
	c, err := a.svc.Content(r.Context(), service.ContentRef{SpaceID: row.TargetSpace})
	if quire.IsNotFound(err) {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	for i := range out {
		p, err := c.Page(r.Context(), out[i].ID)
		if quire.IsNotFound(err) {
			continue
		} else if err != nil {
			return nil, err
		}
		path, err := c.Path(r.Context(), p)
		if err != nil {
			return nil, err
		}
		out[i].Title, out[i].URL = p.Title, spacePath(row.TargetSpace)+"/"+path
	}
	return out, nil
}

// updateTranslation saves the instructions from the form; the language
// stays. Bad input draws the page again naming the field, and nothing is
// stored.
func (a *App) updateTranslation(w http.ResponseWriter, r *http.Request) error {
	tr, err := a.translationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, id := r.PathValue("organizationId"), r.PathValue("translationId")
	if _, err := tr.Get(ctx, orgID, id); err != nil {
		return err
	}
	doc, err := instructionsDocument(r.PostFormValue("instructions"))
	if err == nil {
		_, err = tr.Update(ctx, orgID, id, service.TranslationInput{Instructions: doc})
	}
	if st, ok := translationFormState("instructions", err); ok {
		return a.drawTranslation(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, translationsPath(orgID, id)+"?done=saved", http.StatusSeeOther)
	return nil
}

// runTranslation queues a run of the translation and goes back to its
// page, which reloads until the run ends.
func (a *App) runTranslation(w http.ResponseWriter, r *http.Request) error {
	tr, err := a.translationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, id := r.PathValue("organizationId"), r.PathValue("translationId")
	if err := tr.Run(ctx, userFrom(ctx), orgID, id); err != nil {
		return err
	}
	http.Redirect(w, r, translationsPath(orgID, id)+"?done=run", http.StatusSeeOther)
	return nil
}

// deleteTranslation deletes a translation once confirmed, its target
// space kept; without the confirmation it draws the page asking for it.
func (a *App) deleteTranslation(w http.ResponseWriter, r *http.Request) error {
	tr, err := a.translationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, id := r.PathValue("organizationId"), r.PathValue("translationId")
	v, err := tr.Get(ctx, orgID, id)
	if err != nil {
		return err
	}
	if r.PostFormValue("confirm") != "yes" {
		sh, err := a.shell(r, orgID)
		if err != nil {
			return err
		}
		row := newTranslationRow(orgID, v, spaceLinks(sh.Tree))
		target := "The target space"
		if row.Target.Title != "" {
			target += " “" + row.Target.Title + "”"
		}
		return a.renderConfirm(w, r, sh, confirmView{Title: "Delete " + translationTitle(row), Section: "translations",
			Heading: "Delete the translation “" + translationTitle(row) + "”?",
			Text:    "Its runs stop and its statistics are lost. " + target + " stays, with its pages: delete it on its own if you no longer need it.",
			Button:  "Delete translation", Back: row.URL, Danger: true})
	}
	ok, err := tr.Delete(ctx, orgID, id)
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("translation")
	}
	http.Redirect(w, r, translationsPath(orgID)+"?done=deleted", http.StatusSeeOther)
	return nil
}
