package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// shareLinkCols are the columns of site_share_links in scanShareLink's
// order.
const shareLinkCols = `id, site_id, name, share_key, active, created_at`

func scanShareLink(sc scanner) (*quire.SiteShareLink, error) {
	var (
		l       quire.SiteShareLink
		created int64
	)
	if err := sc.Scan(&l.ID, &l.SiteID, &l.Name, &l.Key, &l.Active, &created); err != nil {
		return nil, err
	}
	l.CreatedAt = fromMillis(created)
	return &l, nil
}

// CreateSiteShareLink stores a share link.
func (s *Store) CreateSiteShareLink(ctx context.Context, l *quire.SiteShareLink) error {
	_, err := s.exec(ctx, "INSERT INTO site_share_links ("+shareLinkCols+") VALUES (?, ?, ?, ?, ?, ?)",
		l.ID, l.SiteID, l.Name, l.Key, l.Active, millis(l.CreatedAt))
	if err != nil {
		return s.conflict("create share link", err, "a share link with this id or key already exists")
	}
	return nil
}

// SiteShareLinks lists a site's share links in creation order, counted.
func (s *Store) SiteShareLinks(ctx context.Context, siteID string, p quire.Page) (*quire.List[*quire.SiteShareLink], error) {
	var w filter
	w.add("site_id = ?", siteID)
	n, err := s.count(ctx, "SELECT COUNT(*) FROM site_share_links"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("count share links", err)
	}
	if err := seekAfter[int64](&w, p, "share-link", "created_at", "id", false); err != nil {
		return nil, err
	}
	items, more, err := fetchPage(ctx, s, "SELECT "+shareLinkCols+" FROM site_share_links"+w.where()+" ORDER BY created_at, id", w.args, p.Size(), scanShareLink)
	if err != nil {
		return nil, wrap("list share links", err)
	}
	return newList(items, more, n, func(l *quire.SiteShareLink) string {
		return encodeCursor("share-link", millis(l.CreatedAt), l.ID)
	}), nil
}

// oneShareLink reads one share link matching cond.
func (s *Store) oneShareLink(ctx context.Context, cond string, args ...any) (*quire.SiteShareLink, error) {
	l, err := scanShareLink(s.queryRow(ctx, "SELECT "+shareLinkCols+" FROM site_share_links WHERE "+cond, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("share link")
	}
	return l, wrap("get share link", err)
}

// SiteShareLink returns a share link of a site, or ENOTFOUND.
func (s *Store) SiteShareLink(ctx context.Context, siteID, id string) (*quire.SiteShareLink, error) {
	return s.oneShareLink(ctx, "site_id = ? AND id = ?", siteID, id)
}

// SiteShareLinkByKey returns the share link of a site holding key, or
// ENOTFOUND.
func (s *Store) SiteShareLinkByKey(ctx context.Context, siteID, key string) (*quire.SiteShareLink, error) {
	return s.oneShareLink(ctx, "site_id = ? AND share_key = ?", siteID, key)
}

// UpdateSiteShareLink applies the non-nil fields of upd.
func (s *Store) UpdateSiteShareLink(ctx context.Context, siteID, id string, upd quire.SiteShareLinkUpdate) (*quire.SiteShareLink, error) {
	var set setter
	setIf(&set, "name", upd.Name)
	setIf(&set, "active", upd.Active)
	var out *quire.SiteShareLink
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.update(ctx, "site_share_links", "site_id = ? AND id = ?", []any{siteID, id}, set, "share link"); err != nil {
			return err
		}
		var err error
		out, err = tx.SiteShareLink(ctx, siteID, id)
		return err
	})
	return out, wrap("update share link", err)
}

// DeleteSiteShareLink deletes a share link; its key opens nothing after.
func (s *Store) DeleteSiteShareLink(ctx context.Context, siteID, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM site_share_links WHERE site_id = ? AND id = ?", siteID, id)
	return n > 0, wrap("delete share link", err)
}
