package app_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"encoding/xml"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"

	"quire/internal/quire"
)

// samlIdP is a SAML identity provider on 127.0.0.1 (crewjam/saml's, as
// the API's tests use) that signs in the person set, without a form, in
// plain (unencrypted) assertions.
type samlIdP struct {
	idp     *saml.IdentityProvider
	certPEM string

	mu          sync.Mutex
	email, name string
}

// newSAMLIdP starts an identity provider; it stops when the test ends.
func newSAMLIdP(t *testing.T) *samlIdP {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "test IdP"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	ti := &samlIdP{certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base, _ := url.Parse(srv.URL)
	ti.idp = &saml.IdentityProvider{Key: key, Certificate: cert,
		MetadataURL: *base.JoinPath("/metadata"), SSOURL: *base.JoinPath("/sso"),
		ServiceProviderProvider: ti, SessionProvider: ti, Logger: log.New(io.Discard, "", 0)}
	mux.HandleFunc("/sso", ti.idp.ServeSSO)
	return ti
}

// as sets who signs in next.
func (ti *samlIdP) as(email, name string) {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	ti.email, ti.name = email, name
}

// GetServiceProvider fetches the service provider's metadata from its
// entity id (its metadata URL), without its encryption key.
func (ti *samlIdP) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
	res, err := http.Get(id)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	var ed saml.EntityDescriptor
	if err := xml.Unmarshal(b, &ed); err != nil {
		return nil, err
	}
	for i := range ed.SPSSODescriptors {
		d := &ed.SPSSODescriptors[i]
		var keep []saml.KeyDescriptor
		for _, k := range d.KeyDescriptors {
			if k.Use != "encryption" {
				keep = append(keep, k)
			}
		}
		d.KeyDescriptors = keep
	}
	return &ed, nil
}

// GetSession signs in the person set.
func (ti *samlIdP) GetSession(_ http.ResponseWriter, _ *http.Request, _ *saml.IdpAuthnRequest) *saml.Session {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	now := time.Now()
	return &saml.Session{ID: quire.NewID(), Index: quire.NewID(), CreateTime: now, ExpireTime: now.Add(time.Hour),
		NameID: ti.email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: ti.email,
		UserCommonName: ti.name, UserName: ti.email}
}
