package service

import (
	"context"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// auditOrgSettings records on st, with the update that made them, one
// event for each of the organization's own settings that changed from
// was to now, with what it was and what it became: the title, the logo,
// the default role, the email domains, invite links, the merge rules and
// the single sign-on requirement.
func auditOrgSettings(ctx context.Context, st quire.Store, was, now *quire.Organization) error {
	for _, c := range []struct {
		action   quire.AuditAction
		from, to string
	}{
		{quire.AuditOrgTitleChanged, was.Title, now.Title},
		{quire.AuditOrgLogoChanged, orNone(was.LogoURL), orNone(now.LogoURL)},
		{quire.AuditOrgDefaultRoleChanged, roleWord(was.DefaultRole), roleWord(now.DefaultRole)},
		{quire.AuditOrgEmailDomainsChanged, orNone(strings.Join(was.EmailDomains, ", ")), orNone(strings.Join(now.EmailDomains, ", "))},
		{quire.AuditOrgInviteLinksChanged, strconv.FormatBool(was.InviteLinks), strconv.FormatBool(now.InviteLinks)},
		{quire.AuditOrgMergeRulesChanged, mergeRulesWords(was.MergeRules), mergeRulesWords(now.MergeRules)},
		{quire.AuditSSOEnforcedChanged, strconv.FormatBool(was.SSO), strconv.FormatBool(now.SSO)},
	} {
		if c.from == c.to {
			continue
		}
		if err := audit(ctx, st, quire.AuditEvent{OrgID: now.ID, Action: c.action,
			TargetKind: quire.AuditTargetOrganization, TargetID: now.ID,
			Details: map[string]string{"from": c.from, "to": c.to}}); err != nil {
			return err
		}
	}
	return nil
}

// orNone is s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// mergeRulesWords writes merge rules for the audit log: "none",
// "inherit", or each rule by its name, with the user ids of the reviewer
// rules and the expression of a custom one.
func mergeRulesWords(m quire.MergeRules) string {
	if m.Type != quire.MergeRulesRules {
		return orNone(string(m.Type))
	}
	words := make([]string, 0, len(m.Rules))
	for _, r := range m.Rules {
		w := string(r.Rule)
		switch {
		case len(r.Users) > 0:
			w += " (" + strings.Join(r.Users, " ") + ")"
		case r.Expression != "":
			w += " (" + r.Expression + ")"
		}
		words = append(words, w)
	}
	return orNone(strings.Join(words, ", "))
}
