package app

import (
	"context"
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// linkGone draws the page of a one-time link that was used, expired or
// never existed, saying so; other errors are returned.
func (a *App) linkGone(w http.ResponseWriter, r *http.Request, err error) error {
	if !quire.IsNotFound(err) {
		return err
	}
	a.renderBare(w, r, http.StatusNotFound, "error", errorPage{Status: http.StatusNotFound, Title: "Link not valid",
		Message: quire.ErrorMessage(err)})
	return nil
}

// passwordLink is a page of a one-time link that sets a password: first
// start's setup and resets.
type passwordLink struct {
	page, title string
	user        func(ctx context.Context, secret string) (*quire.User, error)
	use         func(ctx context.Context, secret, password string, c service.Client) (*service.SignedIn, error)
}

// showPasswordLink draws the link's form for its user.
func (a *App) showPasswordLink(w http.ResponseWriter, r *http.Request, pl passwordLink) error {
	u, err := pl.user(r.Context(), r.PathValue("secret"))
	if err != nil {
		return a.linkGone(w, r, err)
	}
	a.renderBare(w, r, http.StatusOK, pl.page, &accountForm{Title: pl.title, Action: r.URL.Path, Email: u.Email, Name: u.DisplayName})
	return nil
}

// usePasswordLink sets the password typed twice, signs the person in
// and goes to the app's home.
func (a *App) usePasswordLink(w http.ResponseWriter, r *http.Request, pl passwordLink) error {
	u, err := pl.user(r.Context(), r.PathValue("secret"))
	if err != nil {
		return a.linkGone(w, r, err)
	}
	f := &accountForm{Title: pl.title, Action: r.URL.Path, Email: u.Email, Name: u.DisplayName}
	pw := r.PostFormValue("password")
	if pw != r.PostFormValue("confirm") {
		f.Field, f.Error = "confirm", "does not match the password"
		a.renderBare(w, r, http.StatusBadRequest, pl.page, f)
		return nil
	}
	si, err := pl.use(r.Context(), r.PathValue("secret"), pw, clientOf(r))
	if err != nil {
		if quire.IsNotFound(err) {
			return a.linkGone(w, r, err)
		}
		status, err := f.failForm(err)
		if err != nil {
			return err
		}
		a.renderBare(w, r, status, pl.page, f)
		return nil
	}
	a.startSession(w, si)
	http.Redirect(w, r, "/app/", http.StatusSeeOther)
	return nil
}
