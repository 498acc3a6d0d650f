package service

import (
	"context"
	"testing"

	"quire/internal/quire"
)

// TestTurnOffSSO deletes every SAML provider of an organization and stops
// requiring single sign-on in one operation, each change in the audit
// log; another organization's providers stay, and turning off again
// does nothing.
func TestTurnOffSSO(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		svc, admin, org := bootstrapOn(t, st)
		ctx := WithActor(context.Background(), admin)
		saml := NewSAML(svc)
		other := newOrganization("Other", svc.Now())
		if err := st.CreateOrganization(ctx, other); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, label := range []string{"Okta", "Entra"} {
			p, err := saml.CreateProvider(ctx, org, SAMLProviderInput{Label: ptrOf(label)})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		kept, err := saml.CreateProvider(ctx, other.ID, SAMLProviderInput{Label: ptrOf("Theirs")})
		if err != nil {
			t.Fatal(err)
		}
		on := true
		if _, err := svc.UpdateOrganization(ctx, org, quire.OrganizationUpdate{SSO: &on}); err != nil {
			t.Fatal(err)
		}

		res, err := saml.TurnOff(ctx, org)
		if err != nil {
			t.Fatal(err)
		}
		if res.Providers != 2 || !res.WasRequired {
			t.Errorf("turned off: %+v", res)
		}
		if l, err := saml.Providers(ctx, org, quire.Page{}); err != nil || len(l.Items) != 0 {
			t.Fatalf("providers left: %v %v", l, err)
		}
		if o, err := svc.Organization(ctx, org); err != nil || o.SSO {
			t.Fatalf("single sign-on still required: %v", err)
		}
		if _, err := saml.Provider(ctx, other.ID, kept.ID); err != nil {
			t.Fatalf("another organization's provider went: %v", err)
		}
		events := auditTrail(t, svc, admin, org, quire.AuditFilter{})
		if len(events) < 3 {
			t.Fatalf("events: %+v", events)
		}
		if e := events[0]; e.Action != quire.AuditSSOEnforcedChanged || e.Details["to"] != "false" || e.Details["via"] != viaSSOTurnedOff || e.ActorID != admin.ID {
			t.Errorf("requirement event: %+v", e)
		}
		deleted := map[string]bool{}
		for _, e := range events[1:3] {
			if e.Action != quire.AuditSAMLProviderDeleted || e.Details["via"] != viaSSOTurnedOff || e.ActorID != admin.ID {
				t.Errorf("deletion event: %+v", e)
			}
			deleted[e.TargetID] = true
		}
		if !deleted[ids[0]] || !deleted[ids[1]] {
			t.Errorf("deletions recorded for %v, want %v", deleted, ids)
		}

		again, err := saml.TurnOff(ctx, org)
		if err != nil || again.Providers != 0 || again.WasRequired {
			t.Errorf("turned off again: %+v %v", again, err)
		}
		if n := len(auditTrail(t, svc, admin, org, quire.AuditFilter{})); n != len(events) {
			t.Errorf("turning off again recorded %d events", n-len(events))
		}
		if _, err := saml.TurnOff(ctx, "nosuchorg"); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Errorf("unknown organization: %v", err)
		}
	})
}
