package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"quire/internal/quire"
)

// installationCols are the columns of integration_installations in
// scanInstallation's order.
const installationCols = `id, integration_id, org_id, status, space_selection, site_selection, configuration,
	external_ids, created_at, updated_at`

// decodeSettings reads an installation's stored configuration and
// external ids.
func decodeSettings(config, ids string, cfg *map[string]any, ext *[]string) error {
	if err := json.Unmarshal([]byte(config), cfg); err != nil {
		return fmt.Errorf("decode configuration: %w", err)
	}
	if *cfg == nil {
		*cfg = map[string]any{}
	}
	if err := json.Unmarshal([]byte(ids), ext); err != nil {
		return fmt.Errorf("decode external ids: %w", err)
	}
	if *ext == nil {
		*ext = []string{}
	}
	return nil
}

// encodeSettings renders a configuration and external ids as stored
// JSON text.
func encodeSettings(cfg map[string]any, ext []string) (string, string, error) {
	if cfg == nil {
		cfg = map[string]any{}
	}
	if ext == nil {
		ext = []string{}
	}
	c, err := json.Marshal(cfg)
	if err != nil {
		return "", "", fmt.Errorf("encode configuration: %w", err)
	}
	e, _ := json.Marshal(ext) // strings: cannot fail
	return string(c), string(e), nil
}

// externalIDPattern is the LIKE pattern finding an external id in the
// stored JSON array of them.
func externalIDPattern(id string) string {
	b, _ := json.Marshal(id) // a string: cannot fail
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(string(b)) + "%"
}

// scanInstallation reads the columns of installationCols.
func scanInstallation(sc scanner) (*quire.IntegrationInstallation, error) {
	var (
		in               quire.IntegrationInstallation
		config, ids      string
		created, updated int64
	)
	if err := sc.Scan(&in.ID, &in.IntegrationID, &in.OrgID, &in.Status, &in.SpaceSelection, &in.SiteSelection,
		&config, &ids, &created, &updated); err != nil {
		return nil, err
	}
	if err := decodeSettings(config, ids, &in.Configuration, &in.ExternalIDs); err != nil {
		return nil, err
	}
	in.CreatedAt, in.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &in, nil
}

// CreateInstallation stores an installation.
func (s *Store) CreateInstallation(ctx context.Context, in *quire.IntegrationInstallation) error {
	config, ids, err := encodeSettings(in.Configuration, in.ExternalIDs)
	if err != nil {
		return wrap("create installation", err)
	}
	_, err = s.exec(ctx, "INSERT INTO integration_installations ("+installationCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.ID, in.IntegrationID, in.OrgID, in.Status, in.SpaceSelection,
		in.SiteSelection, config, ids, millis(in.CreatedAt), millis(in.UpdatedAt))
	if err != nil {
		return s.conflict("create installation", err, "the integration is already installed in this organization")
	}
	return nil
}

// Installation returns an installation of an integration.
func (s *Store) Installation(ctx context.Context, integrationID, id string) (*quire.IntegrationInstallation, error) {
	in, err := scanInstallation(s.queryRow(ctx, "SELECT "+installationCols+
		" FROM integration_installations WHERE integration_id = ? AND id = ?", integrationID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("installation")
	}
	return in, wrap("get installation", err)
}

// InstallationIn returns the installation of an integration in an
// organization.
func (s *Store) InstallationIn(ctx context.Context, integrationID, orgID string) (*quire.IntegrationInstallation, error) {
	in, err := scanInstallation(s.queryRow(ctx, "SELECT "+installationCols+
		" FROM integration_installations WHERE integration_id = ? AND org_id = ?", integrationID, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("installation")
	}
	return in, wrap("get installation", err)
}

// Installations lists an integration's installations, oldest first.
func (s *Store) Installations(ctx context.Context, integrationID, externalID string, p quire.Page) (*quire.List[*quire.IntegrationInstallation], error) {
	const tag = "inst"
	var w filter
	w.add("integration_id = ?", integrationID)
	if externalID != "" {
		w.add(`external_ids LIKE ? ESCAPE '\'`, externalIDPattern(externalID))
	}
	count, err := s.count(ctx, "SELECT COUNT(*) FROM integration_installations"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list installations", err)
	}
	if err := seekCreatedBy(&w, p.Cursor, tag, "created_at", "id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + installationCols + " FROM integration_installations" + w.where() + " ORDER BY created_at, id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanInstallation)
	if err != nil {
		return nil, wrap("list installations", err)
	}
	return newList(items, more, count, func(in *quire.IntegrationInstallation) string {
		return encodeCursor(tag, millis(in.CreatedAt), in.ID)
	}), nil
}

// OrgInstallations lists every installation in an organization.
func (s *Store) OrgInstallations(ctx context.Context, orgID string) ([]*quire.IntegrationInstallation, error) {
	rows, err := s.query(ctx, "SELECT "+installationCols+" FROM integration_installations WHERE org_id = ? ORDER BY created_at, id", orgID)
	if err != nil {
		return nil, wrap("organization installations", err)
	}
	defer rows.Close()
	var out []*quire.IntegrationInstallation
	for rows.Next() {
		in, err := scanInstallation(rows)
		if err != nil {
			return nil, wrap("organization installations", err)
		}
		out = append(out, in)
	}
	return out, wrap("organization installations", rows.Err())
}

// UpdateInstallation writes an installation's mutable fields.
func (s *Store) UpdateInstallation(ctx context.Context, in *quire.IntegrationInstallation) error {
	config, ids, err := encodeSettings(in.Configuration, in.ExternalIDs)
	if err != nil {
		return wrap("update installation", err)
	}
	n, err := s.exec(ctx, `UPDATE integration_installations SET status = ?, space_selection = ?, site_selection = ?,
		configuration = ?, external_ids = ?, updated_at = ? WHERE id = ?`, in.Status, in.SpaceSelection, in.SiteSelection,
		config, ids, millis(in.UpdatedAt), in.ID)
	if err == nil && n == 0 {
		return quire.NotFound("installation")
	}
	return wrap("update installation", err)
}

// DeleteInstallation deletes an installation; its space and site
// installations go with it.
func (s *Store) DeleteInstallation(ctx context.Context, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM integration_installations WHERE id = ?", id)
	return n > 0, wrap("delete installation", err)
}

// contentInstallationCols are the columns of
// integration_content_installations in scanContentInstallation's order.
const contentInstallationCols = `installation_id, integration_id, kind, target_id, status, configuration,
	external_ids, created_at, updated_at`

// scanContentInstallation reads the columns of contentInstallationCols.
func scanContentInstallation(sc scanner) (*quire.ContentInstallation, error) {
	var (
		c                 quire.ContentInstallation
		kind, config, ids string
		created, updated  int64
	)
	if err := sc.Scan(&c.InstallationID, &c.IntegrationID, &kind, &c.TargetID, &c.Status, &config, &ids,
		&created, &updated); err != nil {
		return nil, err
	}
	if err := decodeSettings(config, ids, &c.Configuration, &c.ExternalIDs); err != nil {
		return nil, err
	}
	c.Kind = quire.InstallationTarget(kind)
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &c, nil
}

// PutContentInstallation creates or replaces a space or site
// installation.
func (s *Store) PutContentInstallation(ctx context.Context, c *quire.ContentInstallation) error {
	config, ids, err := encodeSettings(c.Configuration, c.ExternalIDs)
	if err != nil {
		return wrap("put content installation", err)
	}
	_, err = s.exec(ctx, "INSERT INTO integration_content_installations ("+contentInstallationCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (installation_id, kind, target_id) DO UPDATE SET status = excluded.status,
		configuration = excluded.configuration, external_ids = excluded.external_ids, updated_at = excluded.updated_at`,
		c.InstallationID, c.IntegrationID, string(c.Kind), c.TargetID, c.Status, config, ids,
		millis(c.CreatedAt), millis(c.UpdatedAt))
	return wrap("put content installation", err)
}

// ContentInstallation returns a space or site installation.
func (s *Store) ContentInstallation(ctx context.Context, installationID string, kind quire.InstallationTarget, targetID string) (*quire.ContentInstallation, error) {
	c, err := scanContentInstallation(s.queryRow(ctx, "SELECT "+contentInstallationCols+
		" FROM integration_content_installations WHERE installation_id = ? AND kind = ? AND target_id = ?",
		installationID, string(kind), targetID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound(string(kind) + " installation")
	}
	return c, wrap("get content installation", err)
}

// ContentInstallations lists space or site installations, oldest first.
func (s *Store) ContentInstallations(ctx context.Context, integrationID, installationID string, kind quire.InstallationTarget, externalID string, p quire.Page) (*quire.List[*quire.ContentInstallation], error) {
	const tag = "cinst"
	var w filter
	w.add("integration_id = ? AND kind = ?", integrationID, string(kind))
	if installationID != "" {
		w.add("installation_id = ?", installationID)
	}
	if externalID != "" {
		w.add(`external_ids LIKE ? ESCAPE '\'`, externalIDPattern(externalID))
	}
	count, err := s.count(ctx, "SELECT COUNT(*) FROM integration_content_installations"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list content installations", err)
	}
	if err := seekCreatedBy(&w, p.Cursor, tag, "created_at", "target_id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + contentInstallationCols + " FROM integration_content_installations" + w.where() + " ORDER BY created_at, target_id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanContentInstallation)
	if err != nil {
		return nil, wrap("list content installations", err)
	}
	return newList(items, more, count, func(c *quire.ContentInstallation) string {
		return encodeCursor(tag, millis(c.CreatedAt), c.TargetID)
	}), nil
}

// InstallationTargets returns the spaces or sites an installation was
// installed on.
func (s *Store) InstallationTargets(ctx context.Context, installationID string, kind quire.InstallationTarget) ([]string, error) {
	rows, err := s.query(ctx, "SELECT target_id FROM integration_content_installations WHERE installation_id = ? AND kind = ?",
		installationID, string(kind))
	if err != nil {
		return nil, wrap("installation targets", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("installation targets", err)
		}
		out = append(out, id)
	}
	return out, wrap("installation targets", rows.Err())
}

// DeleteContentInstallation deletes a space or site installation.
func (s *Store) DeleteContentInstallation(ctx context.Context, installationID string, kind quire.InstallationTarget, targetID string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM integration_content_installations WHERE installation_id = ? AND kind = ? AND target_id = ?",
		installationID, string(kind), targetID)
	return n > 0, wrap("delete content installation", err)
}
