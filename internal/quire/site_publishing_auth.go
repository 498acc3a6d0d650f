package quire

import (
	"context"
	"time"
)

// VisitorAuthBackend names who signs visitors of a visitor-auth site in.
type VisitorAuthBackend string

// Visitor authentication backends.
const (
	// VisitorAuthCustom is the site owner's own sign-in, which signs
	// visitor tokens with the site's private key.
	VisitorAuthCustom VisitorAuthBackend = "custom"
	// VisitorAuthIntegration is a visitor authentication integration
	// installed on the site.
	VisitorAuthIntegration VisitorAuthBackend = "integration"
)

// SitePublishingAuth is how a site authenticates its visitors: the private
// key signing their tokens (JWT, HS256), who signs them in, and where a
// visitor without a valid token is sent. Every site has one, made with the
// site (or on first use for sites older than it).
type SitePublishingAuth struct {
	SiteID string
	// SealedKey is the private key, sealed under the server's secret key
	// and bound to the site; the store never sees it in the clear.
	SealedKey   string
	Backend     VisitorAuthBackend
	FallbackURL string // "" for none
	UpdatedAt   time.Time
}

// SitePublishingAuthUpdate holds the fields an update may change; nil
// keeps a field, a pointer to "" clears FallbackURL.
type SitePublishingAuthUpdate struct {
	SealedKey   *string
	Backend     *VisitorAuthBackend
	FallbackURL *string
	UpdatedAt   time.Time
}

// SitePublishingAuthStore keeps the publishing authentication of sites.
// Deleting a site deletes it.
type SitePublishingAuthStore interface {
	// SitePublishingAuth returns a site's publishing authentication.
	// Returns ENOTFOUND when the site has none yet.
	SitePublishingAuth(ctx context.Context, siteID string) (*SitePublishingAuth, error)
	// EnsureSitePublishingAuth stores candidate as its site's publishing
	// authentication when the site has none, and returns the one stored:
	// of replicas racing to make one, all get the one that won. Returns
	// ENOTFOUND when the site is not there.
	EnsureSitePublishingAuth(ctx context.Context, candidate *SitePublishingAuth) (*SitePublishingAuth, error)
	// UpdateSitePublishingAuth applies upd. Returns ENOTFOUND when the
	// site has none.
	UpdateSitePublishingAuth(ctx context.Context, siteID string, upd SitePublishingAuthUpdate) (*SitePublishingAuth, error)
}
