package service

import (
	"context"
	"strconv"

	"quire/internal/quire"
)

// viaSSOTurnedOff is the "via" detail of the audit events of turning
// off an organization's single sign-on.
const viaSSOTurnedOff = "sso_turned_off"

// SSOTurnedOff says what turning off an organization's single sign-on
// did.
type SSOTurnedOff struct {
	// Providers counts the SAML providers deleted.
	Providers int
	// WasRequired says single sign-on was required until then.
	WasRequired bool
}

// TurnOff turns off the organization's single sign-on in one
// transaction: every SAML provider of it is deleted, with its sign-ins in
// flight, and single sign-on is no longer required, so members sign in
// with a password or the server's OpenID Connect again. Each change is
// in the audit log as a deletion or a requirement change says it, with
// "via" sso_turned_off; with nothing to turn off, nothing is written.
// An unknown organization is ENOTFOUND.
func (a *SAML) TurnOff(ctx context.Context, orgID string) (*SSOTurnedOff, error) {
	var out SSOTurnedOff
	err := a.s.store.WithTx(ctx, func(st quire.Store) error {
		out = SSOTurnedOff{}
		o, err := st.Organization(ctx, orgID)
		if err != nil {
			return err
		}
		var ids []string
		p := quire.Page{Limit: quire.MaxLimit}
		for {
			l, err := st.SAMLProviders(ctx, orgID, p)
			if err != nil {
				return err
			}
			for _, sp := range l.Items {
				ids = append(ids, sp.ID)
			}
			if l.Next == "" {
				break
			}
			p.Cursor = l.Next
		}
		for _, id := range ids {
			ok, err := st.DeleteSAMLProvider(ctx, orgID, id)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			out.Providers++
			if err := audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditSAMLProviderDeleted,
				TargetKind: quire.AuditTargetSAMLProvider, TargetID: id,
				Details: map[string]string{"via": viaSSOTurnedOff}}); err != nil {
				return err
			}
		}
		if !o.SSO {
			return nil
		}
		out.WasRequired = true
		off := false
		if _, err := st.UpdateOrganization(ctx, orgID, quire.OrganizationUpdate{SSO: &off}); err != nil {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditSSOEnforcedChanged,
			TargetKind: quire.AuditTargetOrganization, TargetID: orgID,
			Details: map[string]string{"from": strconv.FormatBool(true), "to": strconv.FormatBool(false), "via": viaSSOTurnedOff}})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
