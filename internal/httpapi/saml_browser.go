package httpapi

import (
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"quire/internal/httpmw"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/web"
)

// SessionCookie names the cookie holding a browser session's secret.
const SessionCookie = web.SessionCookie

// relayCookie names the cookie binding a sign-in in flight to the browser
// that started it; it is sent to the assertion consumer service only.
const relayCookie = "quire_saml_relay"

// defaultAfterLogin is where a sign-in without a redirect lands: the
// signed-in user.
const defaultAfterLogin = "/v1/user"

// BrowserRoute declares an endpoint browsers use directly (SAML sign-in,
// sign-out): not an operation of the published API, so it stays out of
// the OpenAPI document and answers HTML or redirects rather than JSON.
type BrowserRoute struct {
	ID     string
	Method string
	Path   string
	// Public serves the endpoint without an API token or session: what
	// it answers is given to whoever holds the address.
	Public bool
	// Limit is the rate limit its requests count against, per client
	// address; "" for none.
	Limit service.RateClass
}

// browser registers a browser endpoint on the server's mux.
func (s *Server) browser(r BrowserRoute, h http.HandlerFunc) {
	s.browserRoutes = append(s.browserRoutes, r)
	s.mux.HandleFunc(r.Method+" "+r.Path, h)
	if r.Public {
		s.addPublic(r.Method, r.Path)
	}
}

// BrowserRoutes lists the declared browser endpoints.
func (s *Server) BrowserRoutes() []BrowserRoute { return s.browserRoutes }

// sameOrigin reports whether a request may act on a session cookie: safe
// methods always; others only when the browser says the request comes
// from this server's own pages (Origin, or failing it Sec-Fetch-Site).
func (s *Server) sameOrigin(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	if o := r.Header.Get("Origin"); o != "" {
		return o == s.origin
	}
	return r.Header.Get("Sec-Fetch-Site") == "same-origin"
}

// crossSiteRefused is the answer to a cookie-authenticated write from
// another site.
func crossSiteRefused() *apiError {
	return newAPIError(http.StatusForbidden,
		"cross-site request refused: a request authenticated by the session cookie must come from this server's origin (Origin header)")
}

// samlService returns the SAML service or writes the page saying there
// is none.
func (s *Server) samlService(w http.ResponseWriter) (*service.SAML, bool) {
	a, err := s.saml.get()
	if err != nil {
		s.errorPage(w, "", err)
		return nil, false
	}
	return a, true
}

// samlMetadata serves the service provider's metadata for a provider.
func (s *Server) samlMetadata(w http.ResponseWriter, r *http.Request) {
	a, ok := s.samlService(w)
	if !ok {
		return
	}
	id := r.PathValue("providerId")
	md, err := a.Metadata(r.Context(), id, s.spEndpoints(id))
	if err != nil {
		s.errorPage(w, id, err)
		return
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	_, _ = w.Write(md)
}

// localPath accepts a redirect target on this server: an absolute path,
// never a scheme-relative or backslashed one.
func localPath(p string) (string, bool) {
	if p == "" {
		return defaultAfterLogin, true
	}
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\\r\n") || len(p) > 2048 {
		return "", false
	}
	return p, true
}

// samlLogin starts a sign-in: it records the request and sends the
// browser to the identity provider.
func (s *Server) samlLogin(w http.ResponseWriter, r *http.Request) {
	a, ok := s.samlService(w)
	if !ok {
		return
	}
	id := r.PathValue("providerId")
	redirect, ok := localPath(r.URL.Query().Get("redirect"))
	if !ok {
		s.errorPage(w, id, quire.Invalid("redirect", "must be a path on this server"))
		return
	}
	start, err := a.StartLogin(r.Context(), id, s.spEndpoints(id), redirect)
	if err != nil {
		s.errorPage(w, id, err)
		return
	}
	same := http.SameSiteLaxMode
	if s.secure {
		// The answer is a cross-site POST from the identity provider.
		same = http.SameSiteNoneMode
	}
	http.SetCookie(w, &http.Cookie{Name: relayCookie, Value: start.RelayState, Path: "/sso/saml/" + id + "/acs",
		Expires: start.Expires, HttpOnly: true, Secure: s.secure, SameSite: same})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, start.URL, http.StatusSeeOther)
}

// samlACS is the assertion consumer service: it checks the identity
// provider's answer and opens the session.
func (s *Server) samlACS(w http.ResponseWriter, r *http.Request) {
	a, ok := s.samlService(w)
	if !ok {
		return
	}
	id := r.PathValue("providerId")
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, id, &quire.Error{Code: quire.EINVALID, Message: "the identity provider's answer is not a valid form", Err: err})
		return
	}
	in := service.SAMLAnswer{SAMLResponse: r.PostForm.Get("SAMLResponse"), RelayState: r.PostForm.Get("RelayState"),
		UserAgent: r.UserAgent(), Address: httpmw.ClientAddress(r)}
	if c, err := r.Cookie(relayCookie); err == nil {
		in.CookieRelay = c.Value
	}
	login, err := a.FinishLogin(r.Context(), id, s.spEndpoints(id), in)
	if err != nil {
		s.errorPage(w, id, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: relayCookie, Value: "", Path: "/sso/saml/" + id + "/acs", MaxAge: -1,
		HttpOnly: true, Secure: s.secure})
	http.SetCookie(w, s.sessionCookie(login.Session, login.Expires))
	w.Header().Set("Cache-Control", "no-store")
	redirect := login.Redirect
	if redirect == "" {
		redirect = defaultAfterLogin
	}
	http.Redirect(w, r, redirect, http.StatusSeeOther)
}

// sessionCookie is the cookie carrying a session secret; an empty value
// clears it.
func (s *Server) sessionCookie(value string, expires time.Time) *http.Cookie {
	return web.SessionCookieFor(value, expires, s.secure)
}

// logout ends the browser's session on every replica and clears its
// cookie. It answers 204 whether or not a session was open.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(r) {
		writeError(w, crossSiteRefused())
		return
	}
	if c, err := r.Cookie(SessionCookie); err == nil {
		if _, err := s.svc.EndSession(r.Context(), c.Value); err != nil {
			writeError(w, s.toAPIError(err))
			return
		}
	}
	http.SetCookie(w, s.sessionCookie("", time.Time{}))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// sessionTokenJSON is the answer of POST /sso/tokens.
type sessionTokenJSON struct {
	Token string `json:"token"`
}

// createSessionToken issues a personal API token to the user of the
// browser's session, shown once.
func (s *Server) createSessionToken(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(r) {
		writeError(w, crossSiteRefused())
		return
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		writeError(w, newAPIError(http.StatusUnauthorized, "no session: sign in first"))
		return
	}
	u, _, err := s.svc.AuthenticateSession(r.Context(), c.Value)
	if err != nil {
		writeError(w, s.toAPIError(err))
		return
	}
	token, err := s.svc.IssueToken(r.Context(), u)
	if err != nil {
		writeError(w, s.toAPIError(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(sessionTokenJSON{Token: token})
}

// errorPageHTML is the plain page a failed sign-in shows.
var errorPageHTML = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in failed</title></head>
<body><h1>Sign-in failed</h1><p>{{.}}</p></body></html>
`))

// errorPage answers a browser endpoint's failure with a plain page
// saying what went wrong, and logs why.
func (s *Server) errorPage(w http.ResponseWriter, providerID string, err error) {
	e := s.toAPIError(err)
	var qe *quire.Error
	if errors.As(err, &qe) && e.Body.Code < 500 {
		s.log.Warn("SAML sign-in refused", "provider", providerID, "status", e.Body.Code,
			"message", e.Body.Message, "reason", qe.Err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(e.Body.Code)
	_ = errorPageHTML.Execute(w, e.Body.Message)
}
