package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// siteCols are the columns scanSite reads, for a sites table aliased t,
// ending with the count of its site spaces.
const siteCols = `t.id, t.org_id, t.type, t.title, t.basename, t.visibility, t.published, t.adaptive_content,
	t.agents_context, t.proxy, t.default_section_id, t.default_site_space_id, t.created_at, t.updated_at, t.version,
	(SELECT COUNT(*) FROM site_spaces ss WHERE ss.site_id = t.id)`

// scanSite reads the columns of siteCols.
func scanSite(sc scanner) (*quire.Site, error) {
	var (
		s                                  quire.Site
		typ, vis, agents                   string
		basename, defSection, defSiteSpace sql.NullString
		created, updated                   int64
	)
	err := sc.Scan(&s.ID, &s.OrgID, &typ, &s.Title, &basename, &vis, &s.Published, &s.AdaptiveContent,
		&agents, &s.Proxy, &defSection, &defSiteSpace, &created, &updated, &s.Version, &s.SiteSpaces)
	if err != nil {
		return nil, err
	}
	s.Type, s.Visibility, s.AgentsContext = quire.SiteType(typ), quire.Visibility(vis), quire.SiteAgentsContext(agents)
	s.Basename, s.DefaultSection, s.DefaultSiteSpace = basename.String, defSection.String, defSiteSpace.String
	s.CreatedAt, s.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &s, nil
}

// CreateSite stores a site.
func (s *Store) CreateSite(ctx context.Context, site *quire.Site) error {
	_, err := s.exec(ctx, `INSERT INTO sites (id, org_id, type, title, basename, visibility, published,
		adaptive_content, agents_context, proxy, default_section_id, default_site_space_id, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		site.ID, site.OrgID, string(site.Type), site.Title, nullString(site.Basename), string(site.Visibility),
		site.Published, site.AdaptiveContent, string(site.AgentsContext), site.Proxy,
		nullString(site.DefaultSection), nullString(site.DefaultSiteSpace), millis(site.CreatedAt), millis(site.UpdatedAt))
	if err != nil {
		return s.conflict("create site", err, "a site with this id or basename already exists")
	}
	return nil
}

// Site returns a site, or ENOTFOUND.
func (s *Store) Site(ctx context.Context, id string) (*quire.Site, error) {
	site, err := scanSite(s.queryRow(ctx, "SELECT "+siteCols+" FROM sites t WHERE t.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("site")
	}
	return site, wrap("get site", err)
}

// Sites lists an organization's sites in creation order. The list is not
// counted.
func (s *Store) Sites(ctx context.Context, f quire.SiteFilter, p quire.Page) (*quire.List[*quire.Site], error) {
	var w filter
	w.add("t.org_id = ?", f.OrgID)
	if f.SpaceID != "" {
		w.add("EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = t.id AND ss.space_id = ?)", f.SpaceID)
	}
	if f.Title != "" {
		w.add(`LOWER(t.title) LIKE ? ESCAPE '\'`, containsPattern(f.Title))
	}
	if f.Published != nil {
		w.add("t.published = ?", *f.Published)
	}
	if len(f.Types) > 0 {
		types := make([]string, len(f.Types))
		for i, t := range f.Types {
			types[i] = string(t)
		}
		var in string
		in, w.args = inList(w.args, types)
		w.conds = append(w.conds, "t.type IN ("+in+")")
	}
	if err := seekAfter[int64](&w, p, "site", "t.created_at", "t.id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + siteCols + " FROM sites t" + w.where() + " ORDER BY t.created_at, t.id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanSite)
	if err != nil {
		return nil, wrap("list sites", err)
	}
	return newList(items, more, quire.Uncounted, func(site *quire.Site) string {
		return encodeCursor("site", millis(site.CreatedAt), site.ID)
	}), nil
}

// UpdateSite applies the non-nil fields of upd and stamps the update time.
// Returns ENOTFOUND, or ECONFLICT when the basename is taken.
func (s *Store) UpdateSite(ctx context.Context, id string, upd quire.SiteUpdate) (*quire.Site, error) {
	var set setter
	setIf(&set, "title", upd.Title)
	if upd.Visibility != nil {
		set.add("visibility", string(*upd.Visibility))
	}
	if upd.Basename != nil {
		set.add("basename", nullString(*upd.Basename))
	}
	setIf(&set, "adaptive_content", upd.AdaptiveContent)
	if upd.AgentsContext != nil {
		set.add("agents_context", string(*upd.AgentsContext))
	}
	setIf(&set, "proxy", upd.Proxy)
	setIf(&set, "published", upd.Published)
	if upd.DefaultSection != nil {
		set.add("default_section_id", nullString(*upd.DefaultSection))
	}
	if upd.DefaultSiteSpace != nil {
		set.add("default_site_space_id", nullString(*upd.DefaultSiteSpace))
	}
	if !set.empty() {
		set.add("updated_at", millis(s.clock()))
	}
	var out *quire.Site
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.update(ctx, "sites", "id = ?", []any{id}, set, "site"); err != nil {
			return tx.conflict("update site", err, "basename: another site already uses this basename")
		}
		var err error
		out, err = tx.Site(ctx, id)
		return err
	})
	return out, wrap("update site", err)
}

// DeleteSite deletes a site; its structure and share links go with it by
// cascade. It reports whether the site existed.
func (s *Store) DeleteSite(ctx context.Context, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM sites WHERE id = ?", id)
	return n > 0, wrap("delete site", err)
}

// SiteAdaptiveSchema returns the site's visitor schema, or ENOTFOUND.
func (s *Store) SiteAdaptiveSchema(ctx context.Context, siteID string) (*quire.SiteAdaptiveSchema, error) {
	var (
		js sql.NullString
		at sql.NullInt64
	)
	err := s.queryRow(ctx, "SELECT adaptive_schema, adaptive_updated_at FROM sites WHERE id = ?", siteID).Scan(&js, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("site")
	}
	if err != nil {
		return nil, wrap("get adaptive schema", err)
	}
	if !js.Valid {
		return nil, quire.NotFound("adaptive schema")
	}
	return &quire.SiteAdaptiveSchema{JSON: []byte(js.String), UpdatedAt: fromMillis(at.Int64)}, nil
}

// PutSiteAdaptiveSchema sets the site's visitor schema. Returns ENOTFOUND.
func (s *Store) PutSiteAdaptiveSchema(ctx context.Context, siteID string, a *quire.SiteAdaptiveSchema) error {
	var set setter
	set.add("adaptive_schema", string(a.JSON))
	set.add("adaptive_updated_at", millis(a.UpdatedAt))
	return wrap("put adaptive schema", s.update(ctx, "sites", "id = ?", []any{siteID}, set, "site"))
}

// SiteCustomization returns the site's customization JSON, nil when none
// was set. Returns ENOTFOUND.
func (s *Store) SiteCustomization(ctx context.Context, siteID string) ([]byte, error) {
	var js sql.NullString
	err := s.queryRow(ctx, "SELECT customization FROM sites WHERE id = ?", siteID).Scan(&js)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("site")
	}
	if err != nil || !js.Valid {
		return nil, wrap("get customization", err)
	}
	return []byte(js.String), nil
}

// PutSiteCustomization sets the site's customization JSON. Returns
// ENOTFOUND.
func (s *Store) PutSiteCustomization(ctx context.Context, siteID string, settings []byte) error {
	var set setter
	set.add("customization", string(settings))
	set.add("updated_at", millis(s.clock()))
	return wrap("put customization", s.update(ctx, "sites", "id = ?", []any{siteID}, set, "site"))
}

// PublishedSiteByName returns the published site whose basename is name,
// or else the published site whose id is name. Returns ENOTFOUND.
func (s *Store) PublishedSiteByName(ctx context.Context, name string) (*quire.Site, error) {
	site, err := scanSite(s.queryRow(ctx, "SELECT "+siteCols+` FROM sites t
		WHERE t.published = ? AND (t.basename = ? OR (t.id = ? AND NOT EXISTS (SELECT 1 FROM sites b WHERE b.basename = ?)))`,
		true, name, name, name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("site")
	}
	return site, wrap("get published site", err)
}

// PublishedSiteVersion returns the id and version of the site
// PublishedSiteByName would return, from the indexes alone. Returns
// ENOTFOUND.
func (s *Store) PublishedSiteVersion(ctx context.Context, name string) (quire.SiteVersion, error) {
	var v quire.SiteVersion
	err := s.queryRow(ctx, `SELECT t.id, t.version FROM sites t
		WHERE t.published = ? AND (t.basename = ? OR (t.id = ? AND NOT EXISTS (SELECT 1 FROM sites b WHERE b.basename = ?)))`,
		true, name, name, name).Scan(&v.ID, &v.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return v, quire.NotFound("site")
	}
	return v, wrap("get published site version", err)
}

// PublishedSitesOf lists the published sites of the given visibilities, by
// title then id, at most limit of them.
func (s *Store) PublishedSitesOf(ctx context.Context, f quire.PublishedSiteFilter, limit int) ([]*quire.Site, error) {
	if len(f.Visibilities) == 0 || limit <= 0 {
		return nil, nil
	}
	vis := make([]string, len(f.Visibilities))
	for i, v := range f.Visibilities {
		vis[i] = string(v)
	}
	in, args := inList([]any{true}, vis)
	where := "t.published = ? AND t.visibility IN (" + in + ")"
	if f.SpaceID != "" {
		where += " AND EXISTS (SELECT 1 FROM site_spaces x WHERE x.site_id = t.id AND x.space_id = ?)"
		args = append(args, f.SpaceID)
	}
	rows, err := s.query(ctx, "SELECT "+siteCols+" FROM sites t WHERE "+where+
		" ORDER BY t.title, t.id LIMIT ?", append(args, limit)...)
	if err != nil {
		return nil, wrap("list published sites", err)
	}
	defer rows.Close()
	var out []*quire.Site
	for rows.Next() {
		site, err := scanSite(rows)
		if err != nil {
			return nil, wrap("list published sites", err)
		}
		out = append(out, site)
	}
	return out, wrap("list published sites", rows.Err())
}
