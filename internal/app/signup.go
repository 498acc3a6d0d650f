package app

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// signUpInput reads the sign-up fields of a form.
func signUpInput(r *http.Request) service.SignUpInput {
	return service.SignUpInput{Name: strings.TrimSpace(r.PostFormValue("name")), Email: strings.TrimSpace(r.PostFormValue("email")),
		Password: r.PostFormValue("password"), Client: clientOf(r)}
}

// joinForm is the sign-up form of an invite link, or the page of a link
// that cannot be used.
func (a *App) joinForm(w http.ResponseWriter, r *http.Request) (*accountForm, error) {
	inv, o, err := a.cfg.Accounts.OpenInvite(r.Context(), r.PathValue("inviteId"))
	if err != nil {
		return nil, a.linkGone(w, r, err)
	}
	return &accountForm{Title: "Join " + o.Title, Action: r.URL.Path, Org: o, Role: roleName(inv.Role),
		SignIn: signInPath + "?next=" + url.QueryEscape(r.URL.Path)}, nil
}

// joinPage shows the sign-up form of an invite link, with a way to sign
// in and come back; a signed-in person gets the button joining with the
// account they have.
func (a *App) joinPage(w http.ResponseWriter, r *http.Request) error {
	if u := userFrom(r.Context()); u != nil {
		return a.joinSignedIn(w, r, u)
	}
	f, err := a.joinForm(w, r)
	if f == nil {
		return err
	}
	a.renderBare(w, r, http.StatusOK, "signup-join", f)
	return nil
}

// join creates the account of an invite link, a member with the link's
// role, signs them in and goes to the organization.
func (a *App) join(w http.ResponseWriter, r *http.Request) error {
	f, err := a.joinForm(w, r)
	if f == nil {
		return err
	}
	in := signUpInput(r)
	f.Name, f.Email = in.Name, in.Email
	return a.finishSignUp(w, r, f, "signup-join", in.Password, func() (*service.SignedIn, error) {
		return a.cfg.Accounts.JoinByInvite(r.Context(), r.PathValue("inviteId"), in)
	})
}

// finishSignUp checks the repeated password, creates the account with
// create and signs the person in to their organization; a field at
// fault redraws page with the message, a used or unknown link says so.
func (a *App) finishSignUp(w http.ResponseWriter, r *http.Request, f *accountForm, page, password string, create func() (*service.SignedIn, error)) error {
	if password != r.PostFormValue("confirm") {
		f.Field, f.Error = "confirm", "does not match the password"
		a.renderBare(w, r, http.StatusBadRequest, page, f)
		return nil
	}
	si, err := create()
	if err != nil {
		if quire.IsNotFound(err) {
			return a.linkGone(w, r, err)
		}
		status, err := f.failForm(err)
		if err != nil {
			return err
		}
		a.renderBare(w, r, status, page, f)
		return nil
	}
	a.startSession(w, si)
	http.Redirect(w, r, "/app/o/"+si.OrgID, http.StatusSeeOther)
	return nil
}

// signUpPage asks for the work email to confirm; a server that sends no
// email does not offer it.
func (a *App) signUpPage(w http.ResponseWriter, r *http.Request) error {
	if !a.cfg.Accounts.MailEnabled() {
		return quire.NotFound("page")
	}
	a.renderBare(w, r, http.StatusOK, "signup", &accountForm{Title: "Create an account", Action: "/app/sign-up", Mail: true})
	return nil
}

// signUp emails a confirmation link when an organization allows the
// email's domain; the answer is the same either way.
func (a *App) signUp(w http.ResponseWriter, r *http.Request) error {
	if !a.cfg.Accounts.MailEnabled() {
		return quire.NotFound("page")
	}
	f := &accountForm{Title: "Create an account", Action: "/app/sign-up", Mail: true, Email: strings.TrimSpace(r.PostFormValue("email"))}
	if err := a.cfg.Accounts.RequestSignUp(r.Context(), f.Email); err != nil {
		status, err := f.failForm(err)
		if err != nil {
			return err
		}
		a.renderBare(w, r, status, "signup", f)
		return nil
	}
	f.Done = true
	f.Notice = "If an organization on this server welcomes " + f.Email + ", we sent it a link to finish creating your account. It works once, within a day."
	a.renderBare(w, r, http.StatusOK, "signup", f)
	return nil
}

// confirmForm is the form of a confirmation link: the proven email, and
// the name and password still to choose.
func (a *App) confirmForm(w http.ResponseWriter, r *http.Request) (*accountForm, error) {
	email, err := a.cfg.Accounts.SignUpEmail(r.Context(), r.PathValue("secret"))
	if err != nil {
		return nil, a.linkGone(w, r, err)
	}
	return &accountForm{Title: "Finish creating your account", Action: r.URL.Path, Email: email}, nil
}

// confirmPage shows the last step of a sign-up by email domain.
func (a *App) confirmPage(w http.ResponseWriter, r *http.Request) error {
	f, err := a.confirmForm(w, r)
	if f == nil {
		return err
	}
	a.renderBare(w, r, http.StatusOK, "signup-confirm", f)
	return nil
}

// confirm creates the account with the proven email, a member of the
// organizations allowing its domain, and signs them in.
func (a *App) confirm(w http.ResponseWriter, r *http.Request) error {
	f, err := a.confirmForm(w, r)
	if f == nil {
		return err
	}
	in := signUpInput(r)
	f.Name = in.Name
	return a.finishSignUp(w, r, f, "signup-confirm", in.Password, func() (*service.SignedIn, error) {
		return a.cfg.Accounts.CompleteSignUp(r.Context(), r.PathValue("secret"), in)
	})
}
