package app

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/quire"
)

// ssoPath is the single sign-on page: the OpenID Connect button and the
// form finding an organization's SAML identity provider from an email.
const ssoPath = "/app/sign-in/sso"

// SignInOption is one way to sign in with single sign-on, for the
// sign-in page.
type SignInOption struct {
	// Kind is "link" (a button following Href, with Link adding where to
	// go after) or "email" (a form posting an email to Action).
	Kind  string
	Label string
	Href  string
	// Action is where an email form posts.
	Action string
}

// Link is the option's address bringing the browser back to next (a path
// of the app) once signed in.
func (o SignInOption) Link(next string) string {
	if next, ok := appPath(next); ok && next != "/app/" {
		return o.Href + "?next=" + url.QueryEscape(next)
	}
	return o.Href
}

// Entry is where the option's button on the sign-in page leads, coming
// back to next: the provider's start, or the page asking for the email
// that finds the organization's provider.
func (o SignInOption) Entry(next string) string {
	if o.Kind == "email" {
		o.Href = o.Action
	}
	return o.Link(next)
}

// signInOptions lists the single sign-on ways in this server offers: the
// OpenID Connect issuer's button when one is configured, and the form
// finding an organization's SAML provider from an email when SAML is on.
func (a *App) signInOptions() []SignInOption {
	var out []SignInOption
	if o := a.cfg.OIDC; o != nil {
		out = append(out, SignInOption{Kind: "link", Label: "Sign in with " + o.Name(), Href: "/app/sign-in/oidc"})
	}
	if a.cfg.SAML != nil {
		out = append(out, SignInOption{Kind: "email", Label: "Sign in with your organization’s SSO", Action: ssoPath})
	}
	return out
}

// SSOView is the single sign-on part of a page: the options and where
// to go once signed in. The single sign-on page draws it with the
// "sso-options" template, the sign-in page with its own buttons.
type SSOView struct {
	Options []SignInOption
	Next    string
	// Email and Error refill the email form after a miss.
	Email string
	Error string
}

// ssoView returns the single sign-on part of a sign-in page.
func (a *App) ssoView(next string) SSOView {
	if next, ok := appPath(next); ok {
		return SSOView{Options: a.signInOptions(), Next: next}
	}
	return SSOView{Options: a.signInOptions()}
}

// appPath accepts where to go after signing in: a path of the app, never
// another site, a scheme-relative or a backslashed address. "" is the
// app's home.
func appPath(p string) (string, bool) {
	if p == "" {
		return "/app/", true
	}
	if !strings.HasPrefix(p, "/app/") || strings.HasPrefix(p, "/app/sign-in") ||
		strings.ContainsAny(p, "\\\r\n\t") || len(p) > 2048 {
		return "", false
	}
	if u, err := url.Parse(p); err != nil || u.Host != "" || u.Scheme != "" {
		return "", false
	}
	return p, true
}

// ssoPageData is the single sign-on page's data.
type ssoPageData struct {
	SSO SSOView
	// Choices are the identity providers an email found, when several.
	Choices []ssoChoice
}

// ssoChoice is an identity provider to pick.
type ssoChoice struct {
	Label    string
	OrgTitle string
	Href     string
}

// ssoPage draws the single sign-on page.
func (a *App) ssoPage(w http.ResponseWriter, r *http.Request) error {
	a.renderBare(w, r, http.StatusOK, "sso", ssoPageData{SSO: a.ssoView(r.URL.Query().Get("next"))})
	return nil
}

// ssoFormLimit bounds the body of the email form.
const ssoFormLimit = 16 << 10

// ssoFind finds the SAML identity providers of the organizations that
// allow the email's domain and offers a link starting the sign-in with
// each; none found says so beside the form.
func (a *App) ssoFind(w http.ResponseWriter, r *http.Request) error {
	if a.cfg.SAML == nil {
		return quire.NotFound("page")
	}
	r.Body = http.MaxBytesReader(w, r.Body, ssoFormLimit)
	if err := r.ParseForm(); err != nil {
		return &quire.Error{Code: quire.EINVALID, Field: "email", Message: "the form could not be read", Err: err}
	}
	data := ssoPageData{SSO: a.ssoView(r.PostForm.Get("next"))}
	data.SSO.Email = strings.TrimSpace(r.PostForm.Get("email"))
	choices, err := a.cfg.SAML.ProvidersForEmail(r.Context(), data.SSO.Email)
	if _, msg, ok := formError(err); ok {
		data.SSO.Error = "Email " + msg
		a.renderBare(w, r, http.StatusBadRequest, "sso", data)
		return nil
	}
	if err != nil {
		return err
	}
	next := data.SSO.Next
	if next == "" {
		next = "/app/"
	}
	start := func(providerID string) string {
		return "/sso/saml/" + url.PathEscape(providerID) + "/login?redirect=" + url.QueryEscape(next)
	}
	if len(choices) == 0 {
		data.SSO.Error = "No organization here signs in people of " + domainOf(data.SSO.Email) +
			" through single sign-on. Sign in another way, or ask your administrator."
		a.renderBare(w, r, http.StatusNotFound, "sso", data)
		return nil
	}
	// Links, not a redirect: the page's form-action 'self' would stop a
	// form's redirect on its way to the identity provider.
	for _, c := range choices {
		data.Choices = append(data.Choices, ssoChoice{Label: c.Label, OrgTitle: c.OrgTitle, Href: start(c.ProviderID)})
	}
	a.renderBare(w, r, http.StatusOK, "sso", data)
	return nil
}

// domainOf is the domain of an email address.
func domainOf(email string) string {
	_, d, _ := strings.Cut(email, "@")
	return strings.ToLower(d)
}
