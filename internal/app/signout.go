package app

import (
	"net/http"

	"quire/internal/web"
)

// signOut ends the browser's session on every replica, clears its
// cookie and goes to the sign-in page.
func (a *App) signOut(w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(web.SessionCookie); err == nil {
		if _, err := a.svc.EndSession(r.Context(), c.Value); err != nil {
			return err
		}
	}
	http.SetCookie(w, web.SessionCookieFor("", a.now(), a.secure))
	http.Redirect(w, r, signInPath, http.StatusSeeOther)
	return nil
}
