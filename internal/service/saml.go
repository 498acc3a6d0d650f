package service

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/url"
	"sync"
	"time"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"

	"quire/internal/quire"
)

// samlKeyName names the service provider's signing key and certificate in
// server_keys; samlSealName the key sealing them when the server is given
// no key of its own.
const (
	samlKeyName  = "saml-sp"
	samlSealName = "saml-sealing"
)

// samlCertLifetime is how long the service provider's self-signed
// certificate is valid. Identity providers pin it from the metadata, so
// it is made once and kept.
const samlCertLifetime = 20 * 365 * 24 * time.Hour

// SAML signs members in through their organization's SAML identity
// providers: it keeps the providers, plays the service provider's part
// (metadata, authentication requests, checking the answers with
// crewjam/saml) and opens a browser session for each sign-in.
type SAML struct {
	s   *Service
	log *slog.Logger
	// seal seals the service provider key in the database, under the
	// key given or else one read from the database.
	seal *sealer
	// requestTTL bounds how long a started sign-in may take.
	requestTTL time.Duration

	mu  sync.Mutex
	key *spKey
}

// spKey is the service provider's signing key and certificate.
type spKey struct {
	key  *rsa.PrivateKey
	cert *x509.Certificate
}

// SAMLOption configures a SAML service.
type SAMLOption func(*SAML)

// WithSAMLSealingKey sets the key sealing the service provider's private
// key in the database, instead of one kept there.
func WithSAMLSealingKey(key []byte) SAMLOption { return func(a *SAML) { a.seal.key = key } }

// NewSAML returns the SAML sign-in service over s.
func NewSAML(s *Service, opts ...SAMLOption) *SAML {
	a := &SAML{s: s, log: s.log, requestTTL: 10 * time.Minute, seal: newSealer(samlSealName)}
	for _, o := range opts {
		o(a)
	}
	return a
}

// SPEndpoints are the service provider's addresses for one identity
// provider; the HTTP layer, which knows the server's base URL, makes them.
type SPEndpoints struct {
	// EntityID is the service provider's entity id: its metadata URL.
	EntityID string
	ACS      string
	Start    string
}

// spKeyMaterial is the stored form of the key: PEM private key and
// certificate.
func encodeSPKey(k *spKey) []byte {
	der := x509.MarshalPKCS1PrivateKey(k.key)
	out := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: der})
	return append(out, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: k.cert.Raw})...)
}

// decodeSPKey reads what encodeSPKey wrote.
func decodeSPKey(b []byte) (*spKey, error) {
	var k spKey
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			break
		}
		var err error
		switch block.Type {
		case "RSA PRIVATE KEY":
			k.key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		case "CERTIFICATE":
			k.cert, err = x509.ParseCertificate(block.Bytes)
		}
		if err != nil {
			return nil, err
		}
	}
	if k.key == nil || k.cert == nil {
		return nil, errors.New("stored SAML key lacks the key or the certificate")
	}
	return &k, nil
}

// newSPKey makes a 2048-bit RSA key and a self-signed certificate for it.
func newSPKey(now time.Time) (*spKey, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "Quire SAML service provider"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(samlCertLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &spKey{key: key, cert: cert}, nil
}

// spKey returns the service provider key every replica shares: made by
// the first replica that needs it, sealed and kept in server_keys. A
// failure is not remembered, so a later call tries again.
func (a *SAML) spKey(ctx context.Context) (*spKey, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.key != nil {
		return a.key, nil
	}
	box, err := a.seal.open(ctx, a.s.store)
	if err != nil {
		return nil, err
	}
	candidate, err := newSPKey(a.s.Now())
	if err != nil {
		return nil, fmt.Errorf("making the SAML key: %w", err)
	}
	bind := []byte(samlKeyName)
	sealed, err := a.s.store.ServerKey(ctx, samlKeyName, []byte(box.Seal(encodeSPKey(candidate), bind)))
	if err != nil {
		return nil, err
	}
	plain, err := box.Open(string(sealed), bind)
	if err != nil {
		return nil, fmt.Errorf("the stored SAML key does not open with this server's secret key: %w", err)
	}
	k, err := decodeSPKey(plain)
	if err != nil {
		return nil, err
	}
	a.key = k
	return k, nil
}

// serviceProvider builds the crewjam service provider for one identity
// provider.
func (a *SAML) serviceProvider(ctx context.Context, p *quire.SAMLProvider, ep SPEndpoints) (*saml.ServiceProvider, error) {
	k, err := a.spKey(ctx)
	if err != nil {
		return nil, err
	}
	entity, err := url.Parse(ep.EntityID)
	if err != nil {
		return nil, err
	}
	acs, err := url.Parse(ep.ACS)
	if err != nil {
		return nil, err
	}
	sp := &saml.ServiceProvider{
		EntityID:          ep.EntityID,
		Key:               k.key,
		Certificate:       k.cert,
		MetadataURL:       *entity,
		AcsURL:            *acs,
		AuthnNameIDFormat: saml.EmailAddressNameIDFormat,
		SignatureMethod:   dsig.RSASHA256SignatureMethod,
		AllowIDPInitiated: p.IDPInitiated,
	}
	if p.Active() {
		cert, err := ParseSAMLCertificate(p.Certificate, a.s.Now())
		if err != nil {
			return nil, err
		}
		sp.IDPMetadata = &saml.EntityDescriptor{
			EntityID: p.EntityID,
			IDPSSODescriptors: []saml.IDPSSODescriptor{{
				SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
					ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
					KeyDescriptors: []saml.KeyDescriptor{{Use: "signing", KeyInfo: saml.KeyInfo{
						X509Data: saml.X509Data{X509Certificates: []saml.X509Certificate{
							{Data: base64.StdEncoding.EncodeToString(cert.Raw)}}}}}},
				}},
				SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.SSOURL}},
			}},
		}
	}
	return sp, nil
}
