package app

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"quire/internal/quire"
)

// maxLogoURL bounds a logo's address, as the API does.
const maxLogoURL = 2048

// orgSettingsView is what the organization's settings page shows: the
// settings as stored, or as typed into a form that was refused.
type orgSettingsView struct {
	OrgID string
	// Title, Logo, DefaultRole, Domains (one a line), InviteLinks and SSO
	// are the values the general form shows.
	Title, Logo, DefaultRole, Domains string
	InviteLinks, SSO                  bool
	Roles                             []roleOption
	// Rules are the merge rules the form offers, each checked when
	// required; Kept the rules set through the API that the form cannot
	// show and keeps as they are.
	Rules []mergeRuleOption
	Kept  []string
	// OIDC names the server's OpenID Connect issuer, "" when there is
	// none; SAML says whether SAML single sign-on is available.
	OIDC   string
	SAML   bool
	Notice string
	State  *FormState
}

// mergeRuleOption is one merge rule the settings form offers.
type mergeRuleOption struct {
	Value, Label string
	On           bool
}

// simpleMergeRules are the merge rules the form offers: those that take
// no users and no expression, with what each requires.
func simpleMergeRules() []mergeRuleOption {
	return []mergeRuleOption{
		{Value: string(quire.RuleAtLeastOneReview), Label: "At least one approving review"},
		{Value: string(quire.RuleAllReviewsApproved), Label: "Every review approves (none asks for changes or is pending)"},
		{Value: string(quire.RuleUpToDate), Label: "The change request is up to date with the space’s content"},
		{Value: string(quire.RuleSubject), Label: "The change request has a subject"},
		{Value: string(quire.RuleDescription), Label: "The change request has a description"},
		{Value: string(quire.RuleAgentReview), Label: "An automated review"},
	}
}

// settingsNotice returns the confirmation of a settings change the page
// was redirected after.
func settingsNotice(r *http.Request) string {
	switch r.URL.Query().Get("done") {
	case "settings":
		return "The organization’s settings were saved."
	case "merge-rules":
		return "The merge rules were saved."
	case "saml-created":
		return "The SAML provider was added."
	case "saml-updated":
		return "The SAML provider was saved."
	case "saml-deleted":
		return "The SAML provider was deleted."
	case "sso-off":
		return "Single sign-on was turned off: the SAML providers were deleted and single sign-on is no longer required."
	}
	return ""
}

// settingsFieldLabel names a field of the settings forms in a message.
func settingsFieldLabel(field string) string {
	switch {
	case field == "title":
		return "Title"
	case field == "logo":
		return "Logo URL"
	case field == "defaultRole":
		return "Default role"
	case strings.HasPrefix(field, "emailDomains"):
		return "Email domains"
	case strings.HasPrefix(field, "mergeRules"), field == "rules":
		return "Merge rules"
	case field == "label":
		return "Label"
	case field == "entityID":
		return "IdP entity ID"
	case field == "ssoURL":
		return "SSO URL"
	case field == "certificate":
		return "Certificate"
	case field == "":
		return "The form"
	}
	return field
}

// settingsFormState turns an invalid field's error into the state of
// form to draw again, the field named in the message; ok is false for
// any other error.
func settingsFormState(form string, err error) (*FormState, bool) {
	field, msg, ok := formError(err)
	if !ok {
		return nil, false
	}
	if strings.HasPrefix(field, "emailDomains") {
		field = "emailDomains"
	}
	if strings.HasPrefix(field, "mergeRules") {
		field = "rules"
	}
	return &FormState{Form: form, Field: field, Message: settingsFieldLabel(field) + " " + msg + "."}, true
}

// orgSettings answers the organization's settings page.
func (a *App) orgSettings(w http.ResponseWriter, r *http.Request) error {
	return a.drawOrgSettings(w, r, http.StatusOK, nil)
}

// drawOrgSettings draws the settings page: the settings as stored, and
// when state holds an error, the refused form as it was typed.
func (a *App) drawOrgSettings(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	orgID := r.PathValue("organizationId")
	o, err := a.svc.Organization(r.Context(), orgID)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Organization settings", "settings"
	v := &orgSettingsView{OrgID: orgID, Title: o.Title, Logo: o.LogoURL, DefaultRole: string(o.DefaultRole),
		Domains: strings.Join(o.EmailDomains, "\n"), InviteLinks: o.InviteLinks, SSO: o.SSO,
		Roles: memberRoleOptions(), SAML: a.cfg.SAML != nil, Notice: settingsNotice(r), State: state}
	if a.cfg.OIDC != nil {
		v.OIDC = a.cfg.OIDC.Name()
	}
	v.Rules = simpleMergeRules()
	var on []string
	if o.MergeRules.Type == quire.MergeRulesRules {
		for _, mr := range o.MergeRules.Rules {
			if simpleRule(mr.Rule) {
				on = append(on, string(mr.Rule))
			} else {
				v.Kept = append(v.Kept, keptRuleText(mr))
			}
		}
	}
	if state != nil && state.Form == "general" {
		v.Title, v.Logo, v.DefaultRole = r.PostFormValue("title"), r.PostFormValue("logo"), r.PostFormValue("default_role")
		v.Domains = r.PostFormValue("email_domains")
		v.InviteLinks, v.SSO = r.PostFormValue("invite_links") == "on", r.PostFormValue("sso") == "on"
	}
	if state != nil && state.Form == "merge" {
		on = r.PostForm["rules"]
	}
	for i := range v.Rules {
		v.Rules[i].On = slices.Contains(on, v.Rules[i].Value)
	}
	return a.render(w, r, status, "org_settings", sh, v)
}

// simpleRule reports whether the settings form offers the rule.
func simpleRule(k quire.MergeRuleKind) bool {
	for _, o := range simpleMergeRules() {
		if o.Value == string(k) {
			return true
		}
	}
	return false
}

// keptRuleText describes a rule the form keeps without showing it.
func keptRuleText(mr quire.MergeRule) string {
	switch mr.Rule {
	case quire.RuleSpecificReviewers:
		return "Reviews by specific people (" + plural(len(mr.Users), "person", "people") + ")"
	case quire.RuleOneOfSpecificReviewers:
		return "A review by one of specific people (" + plural(len(mr.Users), "person", "people") + ")"
	case quire.RuleAllowBypass:
		return "Specific people may merge anyway (" + plural(len(mr.Users), "person", "people") + ")"
	case quire.RuleCustom:
		return "A custom expression: " + mr.Expression
	}
	return string(mr.Rule)
}

// saveOrgSettings writes the general settings form: title, logo,
// default role, email domains, invite links and SSO enforcement. Bad
// input draws the form again naming the field, and nothing is stored.
func (a *App) saveOrgSettings(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	upd, err := orgSettingsForm(r)
	if err == nil {
		_, err = a.svc.UpdateOrganization(r.Context(), orgID, upd)
	}
	if st, ok := settingsFormState("general", err); ok {
		return a.drawOrgSettings(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/settings?done=settings", http.StatusSeeOther)
	return nil
}

// orgSettingsForm reads the general settings form into an update; a
// field the service does not check (logo, default role) is checked
// here, as the API's schema does.
func orgSettingsForm(r *http.Request) (quire.OrganizationUpdate, error) {
	var upd quire.OrganizationUpdate
	title := strings.TrimSpace(r.PostFormValue("title"))
	if title == "" {
		return upd, quire.Invalid("title", "must not be empty")
	}
	upd.Title = &title
	logo := strings.TrimSpace(r.PostFormValue("logo"))
	if logo != "" {
		u, err := url.Parse(logo)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.ContainsAny(logo, " \t\n") {
			return upd, quire.Invalid("logo", "must be an absolute http or https URL")
		}
		if len(logo) > maxLogoURL {
			return upd, quire.Invalid("logo", "must be at most %d characters", maxLogoURL)
		}
	}
	upd.LogoURL = &logo
	role := quire.Role(r.PostFormValue("default_role"))
	if role != "" && !role.Valid() {
		return upd, quire.Invalid("defaultRole", "choose one of the listed roles")
	}
	upd.DefaultRole = &role
	domains := []string{}
	for _, line := range strings.Split(r.PostFormValue("email_domains"), "\n") {
		if d := strings.TrimSpace(line); d != "" {
			domains = append(domains, d)
		}
	}
	if len(domains) > 100 {
		return upd, quire.Invalid("emailDomains", "must be at most 100 domains")
	}
	upd.EmailDomains = &domains
	invites, sso := r.PostFormValue("invite_links") == "on", r.PostFormValue("sso") == "on"
	upd.InviteLinks, upd.SSO = &invites, &sso
	return upd, nil
}

// saveMergeRules writes the organization's merge rules from the form:
// the rules checked, with the rules set through the API that the form
// does not show kept as they are.
func (a *App) saveMergeRules(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	orgID := r.PathValue("organizationId")
	o, err := a.svc.Organization(ctx, orgID)
	if err != nil {
		return err
	}
	m, err := mergeRulesForm(r, o.MergeRules)
	if err == nil {
		_, err = a.svc.UpdateOrganization(ctx, orgID, quire.OrganizationUpdate{MergeRules: &m})
	}
	if st, ok := settingsFormState("merge", err); ok {
		return a.drawOrgSettings(w, r, http.StatusUnprocessableEntity, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/settings?done=merge-rules", http.StatusSeeOther)
	return nil
}

// mergeRulesForm reads the checked rules into merge rules, keeping the
// rules of was that the form does not offer; no rule at all is type
// none.
func mergeRulesForm(r *http.Request, was quire.MergeRules) (quire.MergeRules, error) {
	if err := r.ParseForm(); err != nil {
		return was, quire.Invalid("rules", "the form could not be read")
	}
	out := quire.MergeRules{Type: quire.MergeRulesRules}
	for _, v := range r.PostForm["rules"] {
		k := quire.MergeRuleKind(v)
		if !simpleRule(k) {
			return was, quire.Invalid("rules", "choose among the listed rules")
		}
		if !slices.ContainsFunc(out.Rules, func(mr quire.MergeRule) bool { return mr.Rule == k }) {
			out.Rules = append(out.Rules, quire.MergeRule{Rule: k})
		}
	}
	if was.Type == quire.MergeRulesRules {
		for _, mr := range was.Rules {
			if !simpleRule(mr.Rule) {
				out.Rules = append(out.Rules, mr)
			}
		}
	}
	if len(out.Rules) == 0 {
		return quire.MergeRules{Type: quire.MergeRulesNone}, nil
	}
	return out, nil
}
