package app

import (
	"net/http"

	"quire/internal/quire"
)

// ssoOffView is what the page confirming turning off an organization's
// single sign-on shows: the providers that go and whether single
// sign-on is required now.
type ssoOffView struct {
	Providers []string
	Required  bool
	Action    string
	Back      string
}

// turnOffSSO turns off the organization's single sign-on once confirmed:
// its SAML providers are deleted and single sign-on is no longer
// required, in one operation of the service; then the settings page says
// so. Without the confirmation it draws the page asking for it, naming
// what goes.
func (a *App) turnOffSSO(w http.ResponseWriter, r *http.Request) error {
	s, err := a.samlArea()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID := r.PathValue("organizationId")
	if r.PostFormValue("confirm") != "yes" {
		o, err := a.svc.Organization(ctx, orgID)
		if err != nil {
			return err
		}
		l, err := s.Providers(ctx, orgID, quire.Page{Limit: quire.MaxLimit})
		if err != nil {
			return err
		}
		v := ssoOffView{Required: o.SSO, Action: r.URL.Path, Back: "/app/o/" + orgID + "/settings/sso"}
		for _, p := range l.Items {
			v.Providers = append(v.Providers, p.Label)
		}
		sh, err := a.shell(r, orgID)
		if err != nil {
			return err
		}
		sh.Title, sh.Section = "Turn off single sign-on", "settings"
		return a.render(w, r, http.StatusOK, "org_sso_off", sh, v)
	}
	if _, err := s.TurnOff(ctx, orgID); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/settings/sso?done=sso-off", http.StatusSeeOther)
	return nil
}
