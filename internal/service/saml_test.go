package service_test

import (
	"bytes"
	"context"
	"testing"

	"quire/internal/quire"
	"quire/internal/secret"
	"quire/internal/service"
)

// TestSAMLKeySealing checks that the service provider key is made once,
// kept sealed in the database and read back by every replica with the
// same sealing key, and that a replica with another key refuses it rather
// than making a key of its own.
func TestSAMLKeySealing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := service.NewBootstrapped(t)
	st, svc := f.Store, f.Svc
	sealKey := secret.NewKey()
	label := "IdP"
	p, err := service.NewSAML(svc, service.WithSAMLSealingKey(sealKey)).CreateProvider(ctx, f.Org,
		service.SAMLProviderInput{Label: &label})
	if err != nil {
		t.Fatal(err)
	}
	ep := service.SPEndpoints{EntityID: "https://quire.test/sso/saml/" + p.ID + "/metadata",
		ACS: "https://quire.test/sso/saml/" + p.ID + "/acs", Start: "https://quire.test/sso/saml/" + p.ID + "/login"}
	metadata := func(a *service.SAML) ([]byte, error) { return a.Metadata(ctx, p.ID, ep) }

	first, err := metadata(service.NewSAML(svc, service.WithSAMLSealingKey(sealKey)))
	if err != nil {
		t.Fatal(err)
	}
	second, err := metadata(service.NewSAML(svc, service.WithSAMLSealingKey(sealKey)))
	if err != nil {
		t.Fatal(err)
	}
	cert := func(md []byte) []byte {
		_, rest, _ := bytes.Cut(md, []byte("X509Certificate>"))
		c, _, _ := bytes.Cut(rest, []byte("<"))
		return c
	}
	if len(cert(first)) == 0 || !bytes.Equal(cert(first), cert(second)) {
		t.Fatalf("replicas answer different certificates:\n%s\n%s", first, second)
	}
	stored, err := st.ServerKey(ctx, "saml-sp", []byte("unused"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stored, []byte("PRIVATE KEY")) {
		t.Fatal("the service provider key is stored in the clear")
	}
	if _, err := metadata(service.NewSAML(svc, service.WithSAMLSealingKey(secret.NewKey()))); err == nil {
		t.Fatal("a replica with another sealing key read the key")
	}
	if _, err := metadata(service.NewSAML(svc)); err == nil {
		t.Fatal("a replica without the sealing key read the key")
	}
	if _, err := service.NewSAML(svc).Metadata(ctx, "nosuch", ep); !quire.IsNotFound(err) {
		t.Fatalf("unknown provider: %v", err)
	}
}
