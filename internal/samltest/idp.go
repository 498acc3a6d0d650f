// Package samltest is a SAML identity provider for tests, served in
// process on 127.0.0.1: crewjam/saml's, with a fresh key and self-signed
// certificate, its metadata, a single sign-on endpoint that signs in
// whoever is set without a form and posts back a signed response, and an
// IdP-initiated start. Tests change who signs in, whether assertions are
// encrypted and how far their times are moved.
package samltest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
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
)

// IdP is a running test identity provider.
type IdP struct {
	// URL is the provider's base address.
	URL string
	// MetadataURL is its entity id, where its metadata is served.
	MetadataURL string
	// SSOURL is where service providers send sign-in requests.
	SSOURL string
	// CertificatePEM is its signing certificate, in PEM.
	CertificatePEM string

	idp *saml.IdentityProvider

	mu          sync.Mutex
	email, name string
	// shift moves the times of the assertions made.
	shift time.Duration
	// plain leaves assertions unencrypted.
	plain bool
}

// New starts an identity provider that encrypts its assertions to the
// service provider, as the service provider's metadata asks; it stops
// when the test ends.
func New(t testing.TB) *IdP {
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
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	ti := &IdP{CertificatePEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ti.idp = &saml.IdentityProvider{Key: key, Certificate: cert,
		MetadataURL: *base.JoinPath("/metadata"), SSOURL: *base.JoinPath("/sso"),
		ServiceProviderProvider: ti, SessionProvider: ti, AssertionMaker: ti,
		Logger: log.New(io.Discard, "", 0)}
	ti.URL, ti.MetadataURL, ti.SSOURL = srv.URL, ti.idp.MetadataURL.String(), ti.idp.SSOURL.String()
	mux.HandleFunc("/sso", ti.idp.ServeSSO)
	mux.HandleFunc("/metadata", ti.idp.ServeMetadata)
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		ti.idp.ServeIDPInitiated(w, r, r.URL.Query().Get("sp"), r.URL.Query().Get("relay"))
	})
	return ti
}

// As sets who signs in next.
func (ti *IdP) As(email, name string) {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	ti.email, ti.name = email, name
}

// MoveTimes moves the times of the assertions made from now on by d
// (negative for assertions made in the past).
func (ti *IdP) MoveTimes(d time.Duration) {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	ti.shift = d
}

// Encrypt sets whether assertions are encrypted to the service provider
// (as its metadata asks) or left in plain text.
func (ti *IdP) Encrypt(on bool) {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	ti.plain = !on
}

// StartURL is the address of an IdP-initiated sign-in into the service
// provider whose entity id (its metadata URL) is sp, with the relay
// state relay when it is set.
func (ti *IdP) StartURL(sp, relay string) string {
	v := url.Values{"sp": {sp}}
	if relay != "" {
		v.Set("relay", relay)
	}
	return ti.URL + "/start?" + v.Encode()
}

// GetServiceProvider fetches a service provider's metadata from its
// entity id, which is its metadata URL, leaving out its encryption key
// when assertions are to be plain.
func (ti *IdP) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
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
	ti.mu.Lock()
	defer ti.mu.Unlock()
	if ti.plain {
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
	}
	return &ed, nil
}

// GetSession signs in the person set, without a form.
func (ti *IdP) GetSession(_ http.ResponseWriter, _ *http.Request, _ *saml.IdpAuthnRequest) *saml.Session {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	now := time.Now().Add(ti.shift)
	return &saml.Session{ID: randomID(), Index: randomID(), CreateTime: now, ExpireTime: now.Add(time.Hour),
		NameID: ti.email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: ti.email,
		UserCommonName: ti.name, UserName: ti.email}
}

// MakeAssertion makes crewjam's assertion, its times moved by the shift
// set.
func (ti *IdP) MakeAssertion(req *saml.IdpAuthnRequest, session *saml.Session) error {
	ti.mu.Lock()
	shift := ti.shift
	ti.mu.Unlock()
	req.Now = req.Now.Add(shift)
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, session); err != nil {
		return err
	}
	a := req.Assertion
	a.IssueInstant = a.IssueInstant.Add(shift)
	if a.Conditions != nil {
		a.Conditions.NotBefore = a.Conditions.NotBefore.Add(shift)
		a.Conditions.NotOnOrAfter = a.Conditions.NotOnOrAfter.Add(shift)
	}
	for i := range a.Subject.SubjectConfirmations {
		if d := a.Subject.SubjectConfirmations[i].SubjectConfirmationData; d != nil {
			d.NotOnOrAfter = d.NotOnOrAfter.Add(shift)
		}
	}
	return nil
}

// randomID returns a random session id or index.
func randomID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
