package app

import (
	"net/http"

	"quire/internal/quire"
)

// Levels of the route table, as the API's: guest is any member or guest
// of an organization; read the least a person needs to see a space or
// collection at all; comment, review and edit what comments, reviews and
// content writes need.
const (
	guest   = quire.LevelGuest
	read    = quire.LevelRead
	comment = quire.LevelComment
	review  = quire.LevelReview
	edit    = quire.LevelEdit
	create  = quire.LevelCreate
	admin   = quire.LevelAdmin
)

// home sends a person to their first organization, or says they belong
// to none yet.
func (a *App) home(w http.ResponseWriter, r *http.Request) error {
	sh, err := a.shell(r, "")
	if err != nil {
		return err
	}
	if len(sh.Orgs) > 0 {
		http.Redirect(w, r, "/app/o/"+sh.Orgs[0].Org.ID, http.StatusSeeOther)
		return nil
	}
	sh.Title = "Welcome"
	return a.render(w, r, http.StatusOK, "welcome", sh, nil)
}

// orgHome is an organization's front page: its collections and spaces.
func (a *App) orgHome(w http.ResponseWriter, r *http.Request) error {
	sh, err := a.shell(r, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	sh.Title, sh.Section = sh.Org.Title, "home"
	return a.render(w, r, http.StatusOK, "organization", sh, nil)
}

// notFound answers every address of the app no route serves.
func (a *App) notFound(w http.ResponseWriter, r *http.Request) error {
	return quire.NotFound("page")
}
