package app

import (
	"net/http"
	"strings"
)

// forgotForm is the form asking for a reset link.
func (a *App) forgotForm() *accountForm {
	return &accountForm{Title: "Reset your password", Action: "/app/forgot", Mail: a.cfg.Accounts.MailEnabled()}
}

// forgotPage asks for the email to send a reset link to, or, on a server
// that sends no email, says who can make one.
func (a *App) forgotPage(w http.ResponseWriter, r *http.Request) error {
	a.renderBare(w, r, http.StatusOK, "forgot", a.forgotForm())
	return nil
}

// forgot emails a reset link. The answer is the same whether or not an
// account has the email.
func (a *App) forgot(w http.ResponseWriter, r *http.Request) error {
	f := a.forgotForm()
	f.Email = strings.TrimSpace(r.PostFormValue("email"))
	if err := a.cfg.Accounts.RequestReset(r.Context(), f.Email); err != nil {
		status, err := f.failForm(err)
		if err != nil {
			return err
		}
		a.renderBare(w, r, status, "forgot", f)
		return nil
	}
	f.Done = true
	f.Notice = "If an account has the address " + f.Email + ", we sent it a link to choose a new password. It works once, within an hour."
	a.renderBare(w, r, http.StatusOK, "forgot", f)
	return nil
}

// resetLink is the page of an emailed or administrator-made reset link.
func (a *App) resetLink() passwordLink {
	return passwordLink{page: "reset", title: "Choose a new password", user: a.cfg.Accounts.ResetUser, use: a.cfg.Accounts.CompleteReset}
}

// resetPage shows the new password form of a reset link.
func (a *App) resetPage(w http.ResponseWriter, r *http.Request) error {
	return a.showPasswordLink(w, r, a.resetLink())
}

// reset sets the new password, ends the person's sessions everywhere and
// signs them in here.
func (a *App) reset(w http.ResponseWriter, r *http.Request) error {
	return a.usePasswordLink(w, r, a.resetLink())
}

// passwordPage shows the form changing the signed-in person's password.
func (a *App) passwordPage(w http.ResponseWriter, r *http.Request) error {
	return a.showPasswordForm(w, r, http.StatusOK, &accountForm{})
}

// showPasswordForm draws the password change page in the shell.
func (a *App) showPasswordForm(w http.ResponseWriter, r *http.Request, status int, f *accountForm) error {
	sh, err := a.shell(r, "")
	if err != nil {
		return err
	}
	sh.Title = "Change your password"
	u := userFrom(r.Context())
	f.Title, f.Action, f.Email = sh.Title, "/app/account/password", u.Email
	return a.render(w, r, status, "reset-password", sh, f)
}

// changePassword replaces the password after checking the current one,
// and ends the person's other sessions.
func (a *App) changePassword(w http.ResponseWriter, r *http.Request) error {
	f := &accountForm{}
	next := r.PostFormValue("password")
	if next != r.PostFormValue("confirm") {
		f.Field, f.Error = "confirm", "does not match the new password"
		return a.showPasswordForm(w, r, http.StatusBadRequest, f)
	}
	var keep string
	if ss := sessionFrom(r.Context()); ss != nil {
		keep = ss.ID
	}
	err := a.cfg.Accounts.ChangePassword(r.Context(), userFrom(r.Context()), r.PostFormValue("current"), next, keep)
	if field, msg, ok := formError(err); ok {
		if field == "currentPassword" {
			field = "current"
		}
		f.Field, f.Error = field, msg
		return a.showPasswordForm(w, r, http.StatusBadRequest, f)
	} else if err != nil {
		return err
	}
	f.Done, f.Notice = true, "Your password was changed, and your other sessions were signed out."
	return a.showPasswordForm(w, r, http.StatusOK, f)
}
