package app

import (
	"net/http"
	"strconv"
	"time"

	"quire/internal/quire"
)

// trashPath is the address of an organization's Trash.
func trashPath(orgID string) string { return "/app/o/" + orgID + "/trash" }

// trashItem is a deleted space as Trash lists it.
type trashItem struct {
	Space *quire.Space
	// CanRestore is whether the caller may bring it back.
	CanRestore bool
	// Left is how long is left to restore it, in words.
	Left string
}

// trash lists the spaces deleted in the last RestoreWindow that the
// caller can see, each with Restore for those who may.
func (a *App) trash(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	l, err := a.svc.DeletedSpaces(r.Context(), userFrom(r.Context()), orgID)
	if err != nil {
		return err
	}
	now := a.now()
	items := make([]trashItem, 0, len(l))
	for _, v := range l {
		left := v.Space.DeletedAt.Add(quire.RestoreWindow).Sub(now)
		items = append(items, trashItem{Space: v.Space, CanRestore: v.Level >= admin, Left: timeLeft(left)})
	}
	sh.Title, sh.Section = "Trash", "trash"
	return a.render(w, r, http.StatusOK, "trash", sh, items)
}

// timeLeft says how long is left of a duration, roughly.
func timeLeft(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + " days left"
	case d >= 2*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " hours left"
	default:
		return "Less than 2 hours left"
	}
}

// restoreSpace brings a space back from Trash, then shows it.
func (a *App) restoreSpace(w http.ResponseWriter, r *http.Request) error {
	v, err := a.svc.RestoreSpace(r.Context(), userFrom(r.Context()), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	return seeOther(w, r, spaceManagePath(v.Space.ID), "space-restored")
}
