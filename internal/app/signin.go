package app

import (
	"net/http"
	"strings"

	"quire/internal/httpmw"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/web"
)

// accountForm is what the sign-in, setup, reset and sign-up pages show:
// the values typed so far (never a password), the field an error is
// about and its message, or a message about the whole form.
type accountForm struct {
	Title string
	// Action is where the form posts.
	Action string
	Name   string
	Email  string
	// Next is where sign-in goes once done.
	Next string
	// SignIn is the sign-in address that comes back to this page.
	SignIn string
	// Field and Error are a field's error; FormError is about the whole
	// form; Notice says what just happened.
	Field     string
	Error     string
	FormError string
	Notice    string
	// SSO are the single sign-on buttons of the sign-in page.
	SSO SSOView
	// Mail says the server sends email: the pages offer resets and
	// sign-up by email domain.
	Mail bool
	// Org and Role describe the organization an invite or a sign-up
	// joins.
	Org  *quire.Organization
	Role string
	// Done hides the form once it did its work.
	Done bool
}

// failForm sets the form's error from err when the person can act on it
// (a field, wrong credentials, too many attempts, a used link) and
// returns the status to answer with; any other error is returned.
func (f *accountForm) failForm(err error) (int, error) {
	if field, msg, ok := formError(err); ok {
		if field == "" {
			f.FormError = msg
		} else {
			f.Field, f.Error = field, msg
		}
		return http.StatusBadRequest, nil
	}
	switch quire.ErrorCode(err) {
	case quire.EUNAUTHORIZED, quire.ETOOMANY, quire.EUNAVAILABLE, quire.EPRECONDITION:
		msg := quire.ErrorMessage(err)
		f.FormError = strings.ToUpper(msg[:1]) + msg[1:]
		return web.StatusOf(quire.ErrorCode(err)), nil
	}
	return 0, err
}

// clientOf says where a request comes from, for rate limits and the
// sessions list.
func clientOf(r *http.Request) service.Client {
	ua := r.UserAgent()
	if len(ua) > 256 {
		ua = ua[:256]
	}
	return service.Client{Address: httpmw.ClientAddress(r), UserAgent: ua}
}

// localNext returns next when it is a path of the app to land on after
// signing in (see appPath), else "/app/": a sign-in never sends anyone to
// another site.
func localNext(next string) string {
	if p, ok := appPath(next); ok {
		return p
	}
	return "/app/"
}

// startSession gives the browser the session's cookie.
func (a *App) startSession(w http.ResponseWriter, si *service.SignedIn) {
	http.SetCookie(w, web.SessionCookieFor(si.Secret, si.Expires, a.secure))
}

// signInForm is the sign-in page's form, with the single sign-on buttons.
func (a *App) signInForm(r *http.Request) *accountForm {
	f := &accountForm{Title: "Sign in", Action: signInPath, Next: r.FormValue("next"), Mail: a.cfg.Accounts.MailEnabled()}
	f.SSO = a.ssoView(f.Next)
	return f
}

// signInPage shows the sign-in form; a signed-in person goes on.
func (a *App) signInPage(w http.ResponseWriter, r *http.Request) error {
	if userFrom(r.Context()) != nil {
		http.Redirect(w, r, localNext(r.FormValue("next")), http.StatusSeeOther)
		return nil
	}
	a.renderBare(w, r, http.StatusOK, "signin", a.signInForm(r))
	return nil
}

// signIn checks an email and a password and opens a session. An unknown
// email and a wrong password show the same message.
func (a *App) signIn(w http.ResponseWriter, r *http.Request) error {
	f := a.signInForm(r)
	f.Email = strings.TrimSpace(r.PostFormValue("email"))
	si, err := a.cfg.Accounts.SignIn(r.Context(), service.SignInInput{Email: f.Email,
		Password: r.PostFormValue("password"), Client: clientOf(r)})
	if err != nil {
		status, err := f.failForm(err)
		if err != nil {
			return err
		}
		a.renderBare(w, r, status, "signin", f)
		return nil
	}
	a.startSession(w, si)
	http.Redirect(w, r, localNext(f.Next), http.StatusSeeOther)
	return nil
}
