package service_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// testCertPEM is a self-signed certificate valid for a day.
func testCertPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestSAMLProvidersForEmail checks that an email finds the active
// providers of the organizations allowing its domain, and nothing else.
func TestSAMLProvidersForEmail(t *testing.T) {
	t.Parallel()
	f := service.NewBootstrapped(t)
	ctx := t.Context()
	a := service.NewSAML(f.Svc)
	cert, entity, sso := testCertPEM(t), "urn:idp", "https://idp.example/sso"
	okta, pending := "Okta", "Pending"
	active, err := a.CreateProvider(ctx, f.Org, service.SAMLProviderInput{Label: &okta, EntityID: &entity, Certificate: &cert, SSOURL: &sso})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.CreateProvider(ctx, f.Org, service.SAMLProviderInput{Label: &pending}); err != nil {
		t.Fatal(err)
	}
	got, err := a.ProvidersForEmail(ctx, "ada@example.org")
	if err != nil || len(got) != 0 {
		t.Fatalf("before the domain is allowed: %+v, %v", got, err)
	}
	domains := []string{"example.org"}
	if _, err := f.Store.UpdateOrganization(ctx, f.Org, quire.OrganizationUpdate{EmailDomains: &domains}); err != nil {
		t.Fatal(err)
	}
	got, err = a.ProvidersForEmail(ctx, " Ada@Example.ORG ")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ProviderID != active.ID || got[0].Label != "Okta" || got[0].OrgTitle != "Org" {
		t.Fatalf("choices = %+v, want the active provider alone", got)
	}
	if _, err := a.ProvidersForEmail(ctx, "not an email"); quire.ErrorCode(err) != quire.EINVALID {
		t.Fatalf("bad email: %v", err)
	}
}
