package app

import "net/http"

// confirmView is what a page asking to confirm a step that cannot be
// undone shows: the question, what follows, the button doing it and
// where cancelling goes.
type confirmView struct {
	Heading, Text, Button, Back string
	// Title is the shell's title, Heading when empty; Section the area
	// of the sidebar the page belongs to.
	Title, Section string
	// Action is where the form posts, the page's own address when
	// empty.
	Action string
	// Icon, when TitleRow is set, stands before the heading in a row,
	// as on an integration's pages; TitleRow draws the row even without
	// an icon.
	Icon     string
	TitleRow bool
	// Danger marks a deletion, its button drawn as such.
	Danger bool
}

// drawConfirm draws the page confirming a step in the organization's
// shell; its form posts confirm=yes, to the same address unless
// v.Action says otherwise.
func (a *App) drawConfirm(w http.ResponseWriter, r *http.Request, orgID string, v confirmView) error {
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	return a.renderConfirm(w, r, sh, v)
}

// renderConfirm draws the page confirming a step in a shell the caller
// has already made.
func (a *App) renderConfirm(w http.ResponseWriter, r *http.Request, sh *Shell, v confirmView) error {
	sh.Title, sh.Section = v.Title, v.Section
	if sh.Title == "" {
		sh.Title = v.Heading
	}
	if v.Action == "" {
		v.Action = r.URL.Path
	}
	return a.render(w, r, http.StatusOK, "confirm", sh, v)
}
