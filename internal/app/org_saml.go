package app

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// samlView is what the single sign-on settings page and a SAML
// provider's page show.
type samlView struct {
	OrgID string
	// Available says whether SAML single sign-on is on in this server;
	// OIDC names the server's OpenID Connect issuer ("" when there is
	// none), which the operator configures.
	Available bool
	OIDC      string
	Providers []samlProviderRow
	// Provider is the provider whose page this is (nil on the list);
	// Form the values the add or edit form shows.
	Provider *samlProviderRow
	Form     samlForm
	SSO      bool
	Notice   string
	State    *FormState
}

// samlProviderRow is a provider with the service provider's addresses
// its identity provider is configured with.
type samlProviderRow struct {
	*quire.SAMLProvider
	SP service.SPEndpoints
}

// samlForm holds the values of the provider form.
type samlForm struct {
	Label, EntityID, SSOURL, Certificate string
	IDPInitiated                         bool
}

// spEndpoints are the service provider's addresses for a provider, as
// the API answers them.
func (a *App) spEndpoints(providerID string) service.SPEndpoints {
	base := a.cfg.BaseURL + "/sso/saml/" + url.PathEscape(providerID)
	return service.SPEndpoints{EntityID: base + "/metadata", ACS: base + "/acs", Start: base + "/login"}
}

// samlArea returns the SAML service, or an error saying SAML single
// sign-on is not available on this server.
func (a *App) samlArea() (*service.SAML, error) {
	if a.cfg.SAML == nil {
		return nil, quire.NotFound("SAML single sign-on")
	}
	return a.cfg.SAML, nil
}

// ssoSettings answers the single sign-on settings page.
func (a *App) ssoSettings(w http.ResponseWriter, r *http.Request) error {
	return a.drawSSOSettings(w, r, http.StatusOK, nil)
}

// baseSAMLView builds the parts of the SSO pages both share, with the
// shell.
func (a *App) baseSAMLView(r *http.Request, title string) (*Shell, *samlView, error) {
	orgID := r.PathValue("organizationId")
	o, err := a.svc.Organization(r.Context(), orgID)
	if err != nil {
		return nil, nil, err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return nil, nil, err
	}
	sh.Title, sh.Section = title, "settings"
	v := &samlView{OrgID: orgID, Available: a.cfg.SAML != nil, SSO: o.SSO, Notice: settingsNotice(r), Form: samlForm{IDPInitiated: true}}
	if a.cfg.OIDC != nil {
		v.OIDC = a.cfg.OIDC.Name()
	}
	return sh, v, nil
}

// drawSSOSettings draws the list of providers with the form to add one,
// as typed when state holds a refused addition's error.
func (a *App) drawSSOSettings(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	sh, v, err := a.baseSAMLView(r, "Single sign-on")
	if err != nil {
		return err
	}
	if v.Available {
		l, err := a.cfg.SAML.Providers(r.Context(), v.OrgID, quire.Page{Limit: quire.MaxLimit})
		if err != nil {
			return err
		}
		for _, p := range l.Items {
			v.Providers = append(v.Providers, samlProviderRow{SAMLProvider: p, SP: a.spEndpoints(p.ID)})
		}
	}
	if state != nil {
		v.State, v.Form = state, typedSAMLForm(r)
	}
	return a.render(w, r, status, "org_sso", sh, v)
}

// typedSAMLForm returns the provider form's values as sent.
func typedSAMLForm(r *http.Request) samlForm {
	return samlForm{Label: r.PostFormValue("label"), EntityID: r.PostFormValue("entity_id"),
		SSOURL: r.PostFormValue("sso_url"), Certificate: r.PostFormValue("certificate"),
		IDPInitiated: r.PostFormValue("idp_initiated") == "on"}
}

// samlInput reads the provider form for the service, which checks the
// label, the SSO URL and the certificate.
func samlInput(r *http.Request) service.SAMLProviderInput {
	f := typedSAMLForm(r)
	label, entity, sso, cert := strings.TrimSpace(f.Label), strings.TrimSpace(f.EntityID), strings.TrimSpace(f.SSOURL), f.Certificate
	return service.SAMLProviderInput{Label: &label, EntityID: &entity, SSOURL: &sso, Certificate: &cert, IDPInitiated: &f.IDPInitiated}
}

// createSAMLProvider adds a SAML provider from the form; bad input
// (such as a certificate that is not one) draws the form again naming
// the field.
func (a *App) createSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	s, err := a.samlArea()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	_, err = s.CreateProvider(r.Context(), orgID, samlInput(r))
	if st, ok := settingsFormState("saml", err); ok {
		return a.drawSSOSettings(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/settings/sso?done=saml-created", http.StatusSeeOther)
	return nil
}

// samlProviderPage answers a provider's page: its service provider
// addresses, the form to change it, and the way to delete it.
func (a *App) samlProviderPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawSAMLProvider(w, r, http.StatusOK, nil)
}

// drawSAMLProvider draws a provider's page, with the form as typed when
// state holds a refused change's error.
func (a *App) drawSAMLProvider(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	s, err := a.samlArea()
	if err != nil {
		return err
	}
	p, err := s.Provider(r.Context(), r.PathValue("organizationId"), r.PathValue("samlProviderId"))
	if err != nil {
		return err
	}
	sh, v, err := a.baseSAMLView(r, "SAML provider "+p.Label)
	if err != nil {
		return err
	}
	v.Provider = &samlProviderRow{SAMLProvider: p, SP: a.spEndpoints(p.ID)}
	v.Form = samlForm{Label: p.Label, EntityID: p.EntityID, SSOURL: p.SSOURL, Certificate: p.Certificate, IDPInitiated: p.IDPInitiated}
	if state != nil {
		v.State, v.Form = state, typedSAMLForm(r)
	}
	return a.render(w, r, status, "org_saml", sh, v)
}

// updateSAMLProvider changes a provider from its form.
func (a *App) updateSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	s, err := a.samlArea()
	if err != nil {
		return err
	}
	orgID, id := r.PathValue("organizationId"), r.PathValue("samlProviderId")
	if _, err := s.Provider(r.Context(), orgID, id); err != nil {
		return err
	}
	_, err = s.UpdateProvider(r.Context(), orgID, id, samlInput(r))
	if st, ok := settingsFormState("saml", err); ok {
		return a.drawSAMLProvider(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/settings/sso/"+url.PathEscape(id)+"?done=saml-updated", http.StatusSeeOther)
	return nil
}

// deleteSAMLProvider deletes a provider once confirmed; without the
// confirmation it draws the page asking for it.
func (a *App) deleteSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	s, err := a.samlArea()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, id := r.PathValue("organizationId"), r.PathValue("samlProviderId")
	p, err := s.Provider(ctx, orgID, id)
	if err != nil {
		return err
	}
	if r.PostFormValue("confirm") != "yes" {
		return a.drawConfirm(w, r, orgID, confirmView{Title: "Delete " + p.Label, Section: "settings",
			Heading: "Delete the SAML provider “" + p.Label + "”?",
			Text:    "Members can no longer sign in through it. Sessions it opened stay open until they end.",
			Button:  "Delete provider", Back: "/app/o/" + orgID + "/settings/sso/" + url.PathEscape(id), Danger: true})
	}
	ok, err := s.DeleteProvider(ctx, orgID, id)
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("SAML provider")
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/settings/sso?done=saml-deleted", http.StatusSeeOther)
	return nil
}
