package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// publishingAuthCols are the columns of site_publishing_auth in
// scanPublishingAuth's order.
const publishingAuthCols = `site_id, private_key, backend, fallback_url, updated_at`

func scanPublishingAuth(sc scanner) (*quire.SitePublishingAuth, error) {
	var (
		a       quire.SitePublishingAuth
		backend string
		updated int64
	)
	if err := sc.Scan(&a.SiteID, &a.SealedKey, &backend, &a.FallbackURL, &updated); err != nil {
		return nil, err
	}
	a.Backend, a.UpdatedAt = quire.VisitorAuthBackend(backend), fromMillis(updated)
	return &a, nil
}

// SitePublishingAuth returns a site's publishing authentication, or
// ENOTFOUND.
func (s *Store) SitePublishingAuth(ctx context.Context, siteID string) (*quire.SitePublishingAuth, error) {
	a, err := scanPublishingAuth(s.queryRow(ctx, "SELECT "+publishingAuthCols+" FROM site_publishing_auth WHERE site_id = ?", siteID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("site publishing auth")
	}
	return a, wrap("get site publishing auth", err)
}

// EnsureSitePublishingAuth stores candidate unless its site has one, then
// reads the one stored. The insert does nothing when the site is gone or
// when another replica stored one first.
func (s *Store) EnsureSitePublishingAuth(ctx context.Context, c *quire.SitePublishingAuth) (*quire.SitePublishingAuth, error) {
	var out *quire.SitePublishingAuth
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, "INSERT INTO site_publishing_auth ("+publishingAuthCols+") "+
			"SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM sites WHERE id = ?) ON CONFLICT (site_id) DO NOTHING",
			c.SiteID, c.SealedKey, string(c.Backend), c.FallbackURL, millis(c.UpdatedAt), c.SiteID); err != nil {
			return err
		}
		var err error
		out, err = tx.SitePublishingAuth(ctx, c.SiteID)
		return err
	})
	return out, wrap("ensure site publishing auth", err)
}

// UpdateSitePublishingAuth applies the non-nil fields of upd.
func (s *Store) UpdateSitePublishingAuth(ctx context.Context, siteID string, upd quire.SitePublishingAuthUpdate) (*quire.SitePublishingAuth, error) {
	var set setter
	setIf(&set, "private_key", upd.SealedKey)
	if upd.Backend != nil {
		set.add("backend", string(*upd.Backend))
	}
	setIf(&set, "fallback_url", upd.FallbackURL)
	if !set.empty() {
		set.add("updated_at", millis(upd.UpdatedAt))
	}
	var out *quire.SitePublishingAuth
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.update(ctx, "site_publishing_auth", "site_id = ?", []any{siteID}, set, "site publishing auth"); err != nil {
			return err
		}
		var err error
		out, err = tx.SitePublishingAuth(ctx, siteID)
		return err
	})
	return out, wrap("update site publishing auth", err)
}
