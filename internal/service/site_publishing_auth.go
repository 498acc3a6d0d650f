package service

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"

	"quire/internal/quire"
)

// siteKeySealName names the key sealing the private keys of sites in
// server_keys, used when the server is given no secret key of its own.
const siteKeySealName = "site-keys-sealing"

// siteKeyBytes is how many random bytes a site's private key holds.
const siteKeyBytes = 32

// SitePublishingAuth is how a site authenticates its visitors, as its
// admins see it: with the private key in the clear.
type SitePublishingAuth struct {
	// PrivateKey signs the visitor tokens (JWT, HS256) of the site: its
	// bytes are the HMAC key.
	PrivateKey  string
	Backend     quire.VisitorAuthBackend
	FallbackURL string
}

// SitePublishingAuthChange is an update of a site's publishing
// authentication; FallbackURL nil keeps it, a pointer to "" removes it.
type SitePublishingAuthChange struct {
	Backend     quire.VisitorAuthBackend
	FallbackURL *string
}

// siteKeyBinding binds a site's sealed private key to the site, so that
// sealed text moved to another site does not open.
func siteKeyBinding(siteID string) []byte { return []byte("site private key\x00" + siteID) }

// newSealedSiteKey makes a random private key for a site and seals it.
func (s *Sites) newSealedSiteKey(ctx context.Context, siteID string) (string, error) {
	box, err := s.keys.open(ctx, s.svc.store)
	if err != nil {
		return "", err
	}
	var b [siteKeyBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return box.Seal([]byte(base64.RawURLEncoding.EncodeToString(b[:])), siteKeyBinding(siteID)), nil
}

// newSitePublishingAuth is the publishing authentication a site starts
// with: a fresh private key, the custom backend and no fallback URL.
func (s *Sites) newSitePublishingAuth(ctx context.Context, siteID string) (*quire.SitePublishingAuth, error) {
	sealed, err := s.newSealedSiteKey(ctx, siteID)
	if err != nil {
		return nil, err
	}
	return &quire.SitePublishingAuth{SiteID: siteID, SealedKey: sealed, Backend: quire.VisitorAuthCustom, UpdatedAt: s.svc.Now()}, nil
}

// storedSitePublishingAuth reads a site's publishing authentication,
// making it for a site older than the keys: replicas racing to make one
// all get the one stored first.
func (s *Sites) storedSitePublishingAuth(ctx context.Context, siteID string) (*quire.SitePublishingAuth, error) {
	a, err := s.svc.store.SitePublishingAuth(ctx, siteID)
	if !quire.IsNotFound(err) {
		return a, err
	}
	candidate, err := s.newSitePublishingAuth(ctx, siteID)
	if err != nil {
		return nil, err
	}
	return s.svc.store.EnsureSitePublishingAuth(ctx, candidate)
}

// openSiteKey returns the private key of a stored publishing
// authentication.
func (s *Sites) openSiteKey(ctx context.Context, a *quire.SitePublishingAuth) (string, error) {
	box, err := s.keys.open(ctx, s.svc.store)
	if err != nil {
		return "", err
	}
	key, err := box.Open(a.SealedKey, siteKeyBinding(a.SiteID))
	if err != nil {
		return "", &sealedElsewhere{siteID: a.SiteID, err: err}
	}
	return string(key), nil
}

// sealedElsewhere is the error of a site key that does not open with
// this server's secret key: it was sealed under another one.
type sealedElsewhere struct {
	siteID string
	err    error
}

// Error implements the error interface.
func (e *sealedElsewhere) Error() string {
	return fmt.Sprintf("the private key of site %s does not open with this server's secret key (regenerate it): %v", e.siteID, e.err)
}

// Unwrap returns the cause.
func (e *sealedElsewhere) Unwrap() error { return e.err }

// sitePublishingAuthOut opens a stored publishing authentication for a
// site's admins.
func (s *Sites) sitePublishingAuthOut(ctx context.Context, a *quire.SitePublishingAuth) (*SitePublishingAuth, error) {
	key, err := s.openSiteKey(ctx, a)
	if err != nil {
		return nil, err
	}
	return &SitePublishingAuth{PrivateKey: key, Backend: a.Backend, FallbackURL: a.FallbackURL}, nil
}

// SitePublishingAuth returns the publishing authentication of a site of
// an organization.
func (s *Sites) SitePublishingAuth(ctx context.Context, orgID, siteID string) (*SitePublishingAuth, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	a, err := s.storedSitePublishingAuth(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	return s.sitePublishingAuthOut(ctx, a)
}

// UpdateSitePublishingAuth sets the backend and, when given, the fallback
// URL of a site's publishing authentication. The integration backend needs
// a visitor authentication integration installed on the site; sites hold
// no installations, so it is refused.
func (s *Sites) UpdateSitePublishingAuth(ctx context.Context, orgID, siteID string, c SitePublishingAuthChange) (*SitePublishingAuth, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if c.Backend == quire.VisitorAuthIntegration {
		return nil, quire.Invalid("backend", "no visitor authentication integration is installed on this site: use the custom backend")
	}
	if _, err := s.storedSitePublishingAuth(ctx, site.ID); err != nil {
		return nil, err
	}
	a, err := s.svc.store.UpdateSitePublishingAuth(ctx, site.ID, quire.SitePublishingAuthUpdate{
		Backend: &c.Backend, FallbackURL: c.FallbackURL, UpdatedAt: s.svc.Now()})
	if err != nil {
		return nil, err
	}
	return s.sitePublishingAuthOut(ctx, a)
}

// RegenerateSitePublishingAuth replaces a site's private key with a new
// random one: visitor tokens signed with the old key open nothing from
// the next request on, on every replica.
func (s *Sites) RegenerateSitePublishingAuth(ctx context.Context, orgID, siteID string) (*SitePublishingAuth, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if _, err := s.storedSitePublishingAuth(ctx, site.ID); err != nil {
		return nil, err
	}
	sealed, err := s.newSealedSiteKey(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	a, err := s.svc.store.UpdateSitePublishingAuth(ctx, site.ID, quire.SitePublishingAuthUpdate{SealedKey: &sealed, UpdatedAt: s.svc.Now()})
	if err != nil {
		return nil, err
	}
	return s.sitePublishingAuthOut(ctx, a)
}

// siteVisitorAuth returns what checks a site's visitors: the key signing
// their tokens and the fallback URL. It is read from the database on
// every visit, so that a regenerated key holds at once on every replica.
// A key that does not open (the server's secret key changed) is logged
// and returned as nil: no token is valid until the key is regenerated,
// and the site's public pages still open.
func (s *Sites) siteVisitorAuth(ctx context.Context, siteID string) (key []byte, fallbackURL string, err error) {
	a, err := s.storedSitePublishingAuth(ctx, siteID)
	if err != nil {
		return nil, "", err
	}
	k, err := s.openSiteKey(ctx, a)
	var elsewhere *sealedElsewhere
	if errors.As(err, &elsewhere) {
		s.svc.log.ErrorContext(ctx, "refusing every visitor token of a site", "site", siteID, "err", err)
		return nil, a.FallbackURL, nil
	}
	if err != nil {
		return nil, "", err
	}
	return []byte(k), a.FallbackURL, nil
}
