package app

import (
	"errors"
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/web"
)

// OIDCCallbackPath is where the OpenID Connect issuer sends the browser
// back; the operator registers the base URL followed by it.
const OIDCCallbackPath = "/app/sign-in/oidc/callback"

// oidcStateCookie binds a sign-in in flight to the browser that started
// it; it goes to the callback only.
const oidcStateCookie = "quire_oidc_state"

// oidcService returns the OpenID Connect sign-in, or the page saying
// there is none.
func (a *App) oidcService() (*service.OIDC, error) {
	if a.cfg.OIDC == nil {
		return nil, quire.NotFound("page")
	}
	return a.cfg.OIDC, nil
}

// oidcStart starts a sign-in with the issuer, to come back to next.
func (a *App) oidcStart(w http.ResponseWriter, r *http.Request) error {
	o, err := a.oidcService()
	if err != nil {
		return err
	}
	next, ok := appPath(r.URL.Query().Get("next"))
	if !ok {
		return quire.Invalid("next", "must be a page of the app")
	}
	start, err := o.StartLogin(r.Context(), next)
	if err != nil {
		return err
	}
	// Lax: the issuer sends the browser back with a top-level GET.
	http.SetCookie(w, &http.Cookie{Name: oidcStateCookie, Value: start.State, Path: OIDCCallbackPath,
		Expires: start.Expires, HttpOnly: true, Secure: a.secure, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, start.URL, http.StatusSeeOther)
	return nil
}

// oidcCallback checks the issuer's answer, opens the session and goes
// where the sign-in was started for. A refusal draws a page saying why.
func (a *App) oidcCallback(w http.ResponseWriter, r *http.Request) error {
	o, err := a.oidcService()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	in := service.OIDCAnswer{Code: q.Get("code"), State: q.Get("state"), Error: q.Get("error"),
		ErrorDescription: q.Get("error_description")}
	if c, err := r.Cookie(oidcStateCookie); err == nil {
		in.CookieState = c.Value
	}
	// The state is good for one try, whatever its outcome.
	http.SetCookie(w, &http.Cookie{Name: oidcStateCookie, Path: OIDCCallbackPath, MaxAge: -1, HttpOnly: true,
		Secure: a.secure, SameSite: http.SameSiteLaxMode})
	login, err := o.FinishLogin(r.Context(), in)
	if err != nil {
		return a.signInFailed(w, r, err)
	}
	client := clientOf(r)
	secret, expires, err := a.svc.OpenSession(r.Context(), login.User.ID, service.SessionOrigin{Method: quire.SessionOIDC,
		UserAgent: client.UserAgent, Address: client.Address})
	if err != nil {
		return err
	}
	http.SetCookie(w, web.SessionCookieFor(secret, expires, a.secure))
	next := login.Redirect
	if next == "" {
		next = "/app/"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
	return nil
}

// signInFailed draws the page of a refused single sign-on: what went
// wrong and the way back to signing in; the reason goes to the log.
func (a *App) signInFailed(w http.ResponseWriter, r *http.Request, err error) error {
	code := quire.ErrorCode(err)
	if code == quire.EINTERNAL {
		return err
	}
	var qe *quire.Error
	if errors.As(err, &qe) {
		a.log.WarnContext(r.Context(), "single sign-on refused", "message", qe.Message, "reason", qe.Err)
	}
	a.renderBare(w, r, web.StatusOf(code), "sso-failed", errorPage{Status: web.StatusOf(code), Title: "Sign-in failed",
		Message: quire.ErrorMessage(err)})
	return nil
}
