package service

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/url"
	"strings"
	"time"

	"quire/internal/quire"
)

// SAMLProviderInput is what a create or an update of a SAML provider
// sets; nil fields are left alone (on create: empty).
type SAMLProviderInput struct {
	Label        *string
	EntityID     *string
	Certificate  *string
	SSOURL       *string
	DefaultRole  *quire.Role
	DefaultTeam  *string
	IDPInitiated *bool
}

// check validates the fields that are set and puts the certificate in
// its PEM form.
func (in *SAMLProviderInput) check(now time.Time) error {
	if in.Label != nil {
		if err := checkTitle("label", *in.Label, 1, 30); err != nil {
			return err
		}
	}
	if in.EntityID != nil {
		v := strings.TrimSpace(*in.EntityID)
		in.EntityID = &v
	}
	if in.SSOURL != nil && *in.SSOURL != "" {
		if err := checkSSOURL(*in.SSOURL); err != nil {
			return err
		}
	}
	if in.Certificate != nil && strings.TrimSpace(*in.Certificate) != "" {
		cert, err := ParseSAMLCertificate(*in.Certificate, now)
		if err != nil {
			return err
		}
		p := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}))
		in.Certificate = &p
	} else if in.Certificate != nil {
		empty := ""
		in.Certificate = &empty
	}
	if in.DefaultRole != nil && *in.DefaultRole != "" && !in.DefaultRole.Valid() {
		return quire.Invalid("defaultRole", "must be one of admin, create, edit, review, comment, read, or null")
	}
	return nil
}

// checkSSOURL accepts an absolute http or https URL.
func checkSSOURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return quire.Invalid("ssoURL", "must be an absolute http or https URL")
	}
	return nil
}

// ParseSAMLCertificate reads an identity provider's signing certificate:
// PEM (or the bare base64 of its DER, as metadata carries it), X.509, and
// valid at now. The error names the certificate field and says what is
// wrong.
func ParseSAMLCertificate(text string, now time.Time) (*x509.Certificate, error) {
	text = strings.TrimSpace(text)
	var der []byte
	if block, _ := pem.Decode([]byte(text)); block != nil {
		if block.Type != "CERTIFICATE" {
			return nil, quire.Invalid("certificate", "PEM block is %q, want CERTIFICATE", block.Type)
		}
		der = block.Bytes
	} else if strings.Contains(text, "-----BEGIN") {
		return nil, quire.Invalid("certificate", "is not valid PEM")
	} else {
		raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return nil, quire.Invalid("certificate", "is neither PEM (-----BEGIN CERTIFICATE-----) nor base64 DER")
		}
		der = raw
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, quire.Invalid("certificate", "is not an X.509 certificate: %v", err)
	}
	if now.After(cert.NotAfter) {
		return nil, quire.Invalid("certificate", "expired on %s", cert.NotAfter.UTC().Format(time.RFC3339))
	}
	if now.Before(cert.NotBefore) {
		return nil, quire.Invalid("certificate", "is not valid before %s", cert.NotBefore.UTC().Format(time.RFC3339))
	}
	return cert, nil
}

// CreateProvider creates a SAML provider in an organization.
func (a *SAML) CreateProvider(ctx context.Context, orgID string, in SAMLProviderInput) (*quire.SAMLProvider, error) {
	now := a.s.Now()
	if in.Label == nil {
		return nil, quire.Invalid("label", "required")
	}
	if err := in.check(now); err != nil {
		return nil, err
	}
	p := &quire.SAMLProvider{ID: quire.NewID(), OrgID: orgID, Label: strings.TrimSpace(*in.Label), CreatedAt: now}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.EntityID, in.EntityID)
	set(&p.Certificate, in.Certificate)
	set(&p.SSOURL, in.SSOURL)
	set(&p.DefaultTeam, in.DefaultTeam)
	if in.DefaultRole != nil {
		p.DefaultRole = *in.DefaultRole
	}
	if in.IDPInitiated != nil {
		p.IDPInitiated = *in.IDPInitiated
	}
	err := a.s.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.CreateSAMLProvider(ctx, p); err != nil {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditSAMLProviderCreated,
			TargetKind: quire.AuditTargetSAMLProvider, TargetID: p.ID, Details: map[string]string{"label": p.Label}})
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Provider returns a SAML provider of an organization.
func (a *SAML) Provider(ctx context.Context, orgID, id string) (*quire.SAMLProvider, error) {
	return a.s.store.SAMLProvider(ctx, orgID, id)
}

// Providers lists an organization's SAML providers.
func (a *SAML) Providers(ctx context.Context, orgID string, p quire.Page) (*quire.List[*quire.SAMLProvider], error) {
	return a.s.store.SAMLProviders(ctx, orgID, p)
}

// UpdateProvider changes a SAML provider.
func (a *SAML) UpdateProvider(ctx context.Context, orgID, id string, in SAMLProviderInput) (*quire.SAMLProvider, error) {
	if err := in.check(a.s.Now()); err != nil {
		return nil, err
	}
	upd := quire.SAMLProviderUpdate{Label: in.Label, EntityID: in.EntityID, Certificate: in.Certificate,
		SSOURL: in.SSOURL, DefaultRole: in.DefaultRole, DefaultTeam: in.DefaultTeam, IDPInitiated: in.IDPInitiated}
	if upd.Label != nil {
		l := strings.TrimSpace(*upd.Label)
		upd.Label = &l
	}
	var out *quire.SAMLProvider
	err := a.s.store.WithTx(ctx, func(st quire.Store) error {
		var err error
		if out, err = st.UpdateSAMLProvider(ctx, orgID, id, upd); err != nil {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditSAMLProviderUpdated,
			TargetKind: quire.AuditTargetSAMLProvider, TargetID: id, Details: map[string]string{"label": out.Label}})
	})
	return out, err
}

// DeleteProvider deletes a SAML provider; it reports whether one existed.
// Sessions it opened stay open until they end.
func (a *SAML) DeleteProvider(ctx context.Context, orgID, id string) (bool, error) {
	var ok bool
	err := a.s.store.WithTx(ctx, func(st quire.Store) error {
		var err error
		if ok, err = st.DeleteSAMLProvider(ctx, orgID, id); err != nil || !ok {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditSAMLProviderDeleted,
			TargetKind: quire.AuditTargetSAMLProvider, TargetID: id})
	})
	return ok, err
}

// SSOLogin is a provider members of an organization can sign in with.
type SSOLogin struct {
	ID    string
	Label string
}

// Logins lists the active providers of an organization, at most 1,000.
func (a *SAML) Logins(ctx context.Context, orgID string) ([]SSOLogin, error) {
	l, err := a.s.store.SAMLProviders(ctx, orgID, quire.Page{Limit: 1000})
	if err != nil {
		return nil, err
	}
	out := []SSOLogin{}
	for _, p := range l.Items {
		if p.Active() {
			out = append(out, SSOLogin{ID: p.ID, Label: p.Label})
		}
	}
	return out, nil
}
