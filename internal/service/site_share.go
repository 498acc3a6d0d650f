package service

import (
	"context"
	"crypto/rand"
	"encoding/base64"

	"quire/internal/quire"
)

// ShareKeyLevel is the level on a site's organization that creates,
// changes and deletes its share links, and sees their keys.
const ShareKeyLevel = quire.LevelCreate

// shareKeyBytes is the length of a share link's random key.
const shareKeyBytes = 24

// SiteShareLinks lists a site's share links. Their keys open the site to
// anyone, so only a caller who may create links sees them: for others
// every link comes without its key.
func (s *Sites) SiteShareLinks(ctx context.Context, u *quire.User, orgID, siteID string, p quire.Page) (*quire.Site, *quire.List[*quire.SiteShareLink], error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, nil, err
	}
	level, err := s.svc.Level(ctx, u, ScopeOrganization, orgID)
	if err != nil {
		return nil, nil, err
	}
	l, err := s.svc.store.SiteShareLinks(ctx, site.ID, p)
	if err != nil || level >= ShareKeyLevel {
		return site, l, err
	}
	for i, link := range l.Items {
		keyless := *link
		keyless.Key = ""
		l.Items[i] = &keyless
	}
	return site, l, nil
}

// CreateSiteShareLink makes a share link with a new random key.
func (s *Sites) CreateSiteShareLink(ctx context.Context, orgID, siteID, name string) (*quire.Site, *quire.SiteShareLink, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, nil, err
	}
	var b [shareKeyBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, nil, err
	}
	l := &quire.SiteShareLink{ID: quire.NewID(), SiteID: site.ID, Name: name,
		Key: base64.RawURLEncoding.EncodeToString(b[:]), Active: true, CreatedAt: s.svc.Now()}
	if err := s.svc.store.CreateSiteShareLink(ctx, l); err != nil {
		return nil, nil, err
	}
	return site, l, nil
}

// UpdateSiteShareLink renames a share link or turns it on or off; a link
// turned off opens nothing until it is turned on again.
func (s *Sites) UpdateSiteShareLink(ctx context.Context, orgID, siteID, id string, upd quire.SiteShareLinkUpdate) (*quire.Site, *quire.SiteShareLink, error) {
	if upd.Name == nil && upd.Active == nil {
		return nil, nil, quire.Invalid("body", "give a name, active or both")
	}
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, nil, err
	}
	l, err := s.svc.store.UpdateSiteShareLink(ctx, site.ID, id, upd)
	return site, l, err
}

// DeleteSiteShareLink deletes a share link; its key opens nothing from
// then on. It reports whether the link was there.
func (s *Sites) DeleteSiteShareLink(ctx context.Context, orgID, siteID, id string) (bool, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if quire.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return s.svc.store.DeleteSiteShareLink(ctx, site.ID, id)
}
