package service

import (
	"context"
	"testing"

	"quire/internal/quire"
)

// bootstrapOn bootstraps a service over st: one organization and its
// first admin.
func bootstrapOn(t *testing.T, st quire.Store) (*Service, *quire.User, string) {
	t.Helper()
	svc := New(st)
	boot, err := svc.Bootstrap(t.Context(), BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := st.User(t.Context(), boot.User)
	if err != nil {
		t.Fatal(err)
	}
	return svc, admin, boot.Organization
}

// auditTrail lists an organization's events matching f, newest first.
func auditTrail(t *testing.T, svc *Service, admin *quire.User, orgID string, f quire.AuditFilter) []quire.AuditEvent {
	t.Helper()
	l, err := svc.AuditEvents(t.Context(), admin, orgID, f, quire.Page{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]quire.AuditEvent, 0, len(l.Items))
	for _, e := range l.Items {
		out = append(out, *e)
	}
	return out
}

// TestOrganizationSettingsAudited changes each of the organization's own
// settings and finds one event per change, in the order made, with what
// it was and what it became and who changed it; the actions filter; an
// update changing nothing, and one refused, record nothing.
func TestOrganizationSettingsAudited(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		svc, admin, org := bootstrapOn(t, st)
		ctx := WithActor(context.Background(), admin)
		was, err := svc.Organization(ctx, org)
		if err != nil {
			t.Fatal(err)
		}
		title, logo, role := "Acme Docs", "https://acme.example/logo.png", quire.RoleEdit
		domains, invites := []string{"Acme.example", "docs.acme.example"}, !was.InviteLinks
		rules := quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{{Rule: quire.RuleAtLeastOneReview}, {Rule: quire.RuleUpToDate}}}
		for _, upd := range []quire.OrganizationUpdate{
			{Title: &title}, {LogoURL: &logo}, {DefaultRole: &role}, {EmailDomains: &domains},
			{InviteLinks: &invites}, {MergeRules: &rules},
		} {
			if _, err := svc.UpdateOrganization(ctx, org, upd); err != nil {
				t.Fatal(err)
			}
		}
		// The same values again, and a refused update, record nothing.
		if _, err := svc.UpdateOrganization(ctx, org, quire.OrganizationUpdate{Title: &title, LogoURL: &logo, DefaultRole: &role,
			EmailDomains: &domains, InviteLinks: &invites, MergeRules: &rules}); err != nil {
			t.Fatal(err)
		}
		bad := []string{"not a domain"}
		if _, err := svc.UpdateOrganization(ctx, org, quire.OrganizationUpdate{Title: ptrOf("Other"), EmailDomains: &bad}); quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("a bad domain: %v", err)
		}

		var events []quire.AuditEvent
		for _, e := range auditTrail(t, svc, admin, org, quire.AuditFilter{}) {
			if e.TargetKind == quire.AuditTargetOrganization {
				events = append(events, e)
			}
		}
		want := []struct {
			action   quire.AuditAction
			from, to string
		}{
			{quire.AuditOrgMergeRulesChanged, mergeRulesWords(was.MergeRules), "require_at_least_one_review, require_up_to_date_change_request"},
			{quire.AuditOrgInviteLinksChanged, boolWord(was.InviteLinks), boolWord(invites)},
			{quire.AuditOrgEmailDomainsChanged, orNone(joinDomains(was.EmailDomains)), "acme.example, docs.acme.example"},
			{quire.AuditOrgDefaultRoleChanged, roleWord(was.DefaultRole), "edit"},
			{quire.AuditOrgLogoChanged, orNone(was.LogoURL), logo},
			{quire.AuditOrgTitleChanged, was.Title, title},
		}
		if len(events) != len(want) {
			t.Fatalf("%d events, want %d: %+v", len(events), len(want), events)
		}
		for i, w := range want {
			e := events[i]
			if e.Action != w.action || e.Details["from"] != w.from || e.Details["to"] != w.to || e.ActorID != admin.ID ||
				e.TargetKind != quire.AuditTargetOrganization || e.TargetID != org {
				t.Errorf("event %d: %s %v by %q on %s %s, want %s %s → %s by %s", i, e.Action, e.Details, e.ActorID,
					e.TargetKind, e.TargetID, w.action, w.from, w.to, admin.ID)
			}
		}
		for _, w := range want {
			got := auditTrail(t, svc, admin, org, quire.AuditFilter{Action: w.action})
			if len(got) != 1 || got[0].Action != w.action {
				t.Errorf("filtered by %s: %d events", w.action, len(got))
			}
		}

		// Several settings in one update: one event each, together.
		title2, none := "Acme", quire.MergeRules{Type: quire.MergeRulesNone}
		if _, err := svc.UpdateOrganization(ctx, org, quire.OrganizationUpdate{Title: &title2, MergeRules: &none}); err != nil {
			t.Fatal(err)
		}
		events = auditTrail(t, svc, admin, org, quire.AuditFilter{})
		if events[0].Action != quire.AuditOrgMergeRulesChanged || events[0].Details["to"] != "none" ||
			events[1].Action != quire.AuditOrgTitleChanged || events[1].Details["to"] != "Acme" {
			t.Errorf("events of one update: %+v", events[:2])
		}
	})
}

// boolWord is a boolean as the audit log's details write it.
func boolWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// joinDomains writes email domains as the audit log's details do.
func joinDomains(d []string) string {
	out := ""
	for i, s := range d {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

// ptrOf returns a pointer to v.
func ptrOf[T any](v T) *T { return &v }
