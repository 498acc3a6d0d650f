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

// integrationCols are the columns of integrations in scanIntegration's
// order.
const integrationCols = `id, name, org_id, user_id, version, manifest, script, icon, signing_secret,
	dev_tunnel, dev_all, created_at, updated_at`

// scanIntegration reads the columns of integrationCols.
func scanIntegration(sc scanner) (*quire.Integration, error) {
	var (
		in               quire.Integration
		manifest         string
		created, updated int64
	)
	if err := sc.Scan(&in.ID, &in.Name, &in.OrgID, &in.UserID, &in.Version, &manifest, &in.Script, &in.Icon,
		&in.SigningSecret, &in.DevTunnel, &in.DevAll, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(manifest), &in.Manifest); err != nil {
		return nil, fmt.Errorf("decode integration manifest: %w", err)
	}
	in.CreatedAt, in.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &in, nil
}

// commaList renders values as ",a,b," so that LIKE '%,a,%' finds one.
func commaList(vals []string) string {
	if len(vals) == 0 {
		return ","
	}
	return "," + strings.Join(vals, ",") + ","
}

// integrationRow is the values of an integration's columns but its id,
// name, organization, user and creation time, in the order of
// UpdateIntegration's SET clause.
func integrationRow(in *quire.Integration) []any {
	m := &in.Manifest
	manifest, _ := json.Marshal(m) // strings, raw JSON already checked and maps of strings: cannot fail
	return []any{in.Version, strings.ToLower(m.Title), string(m.Visibility), m.Target, commaList(m.Categories),
		commaList(m.Scopes), commaList(m.BlockDomains), m.HasBlocks, m.HasContentSources, string(manifest),
		in.Script, in.Icon, millis(in.UpdatedAt)}
}

// CreateIntegration stores a new integration.
func (s *Store) CreateIntegration(ctx context.Context, in *quire.Integration) error {
	args := append([]any{in.ID, in.Name, in.OrgID, in.UserID, in.SigningSecret, millis(in.CreatedAt)}, integrationRow(in)...)
	_, err := s.exec(ctx, `INSERT INTO integrations (id, name, org_id, user_id, signing_secret, created_at,
		version, title_lower, visibility, target, categories, scopes, block_domains, has_blocks, has_content_sources,
		manifest, script, icon, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...)
	if err != nil {
		return s.conflict("create integration", err, fmt.Sprintf("an integration named %q already exists", in.Name))
	}
	return nil
}

// UpdateIntegration writes a new publication when the stored version is
// ifVersion.
func (s *Store) UpdateIntegration(ctx context.Context, in *quire.Integration, ifVersion int64) (bool, error) {
	args := append(integrationRow(in), in.ID, ifVersion)
	n, err := s.exec(ctx, `UPDATE integrations SET version = ?, title_lower = ?, visibility = ?, target = ?,
		categories = ?, scopes = ?, block_domains = ?, has_blocks = ?, has_content_sources = ?, manifest = ?,
		script = ?, icon = ?, updated_at = ? WHERE id = ? AND version = ?`, args...)
	return n > 0, wrap("update integration", err)
}

// SetIntegrationDev sets or clears development mode.
func (s *Store) SetIntegrationDev(ctx context.Context, id, tunnel string, all bool) error {
	n, err := s.exec(ctx, "UPDATE integrations SET dev_tunnel = ?, dev_all = ? WHERE id = ?", tunnel, all, id)
	if err == nil && n == 0 {
		return quire.NotFound("integration")
	}
	return wrap("set integration development mode", err)
}

// Integration returns an integration by name.
func (s *Store) Integration(ctx context.Context, name string) (*quire.Integration, error) {
	in, err := scanIntegration(s.queryRow(ctx, "SELECT "+integrationCols+" FROM integrations WHERE name = ?", name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("integration")
	}
	return in, wrap("get integration", err)
}

// IntegrationByID returns an integration by id.
func (s *Store) IntegrationByID(ctx context.Context, id string) (*quire.Integration, error) {
	in, err := scanIntegration(s.queryRow(ctx, "SELECT "+integrationCols+" FROM integrations WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("integration")
	}
	return in, wrap("get integration", err)
}

// Integrations lists integrations by name.
func (s *Store) Integrations(ctx context.Context, f quire.IntegrationFilter, p quire.Page) (*quire.List[*quire.Integration], error) {
	const tag = "intg"
	var w filter
	w.add("(visibility = 'public' OR org_id IN (SELECT org_id FROM members WHERE user_id = ? AND NOT disabled))", f.Viewer)
	if f.InstalledIn != "" {
		w.add("id IN (SELECT integration_id FROM integration_installations WHERE org_id = ?)", f.InstalledIn)
	}
	if f.InstalledOnSpace != "" {
		w.add("id IN (SELECT integration_id FROM integration_content_installations WHERE kind = 'space' AND target_id = ?)", f.InstalledOnSpace)
	}
	if f.Search != "" {
		pat := containsPattern(f.Search)
		w.add(`(LOWER(name) LIKE ? ESCAPE '\' OR title_lower LIKE ? ESCAPE '\')`, pat, pat)
	}
	for col, v := range map[string]string{"categories": f.Category, "scopes": f.Scope, "block_domains": f.BlockDomain} {
		if v != "" {
			w.add(col+` LIKE ? ESCAPE '\'`, "%,"+strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(v)+",%")
		}
	}
	if f.Blocks != nil {
		w.add("has_blocks = ?", *f.Blocks)
	}
	if f.ContentSources != nil {
		w.add("has_content_sources = ?", *f.ContentSources)
	}
	if f.Owner != "" {
		w.add("org_id = ?", f.Owner)
	}
	if f.Target != "" {
		w.add("(target = ? OR target = 'all')", f.Target)
	}
	if f.InstalledIn == "" && f.InstalledOnSpace == "" {
		w.add("(visibility <> 'unlisted' OR org_id IN (SELECT org_id FROM members WHERE user_id = ? AND NOT disabled))", f.Viewer)
	}
	count, err := s.count(ctx, "SELECT COUNT(*) FROM integrations"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list integrations", err)
	}
	if p.Cursor != "" {
		var name string
		if err := decodeCursor(p.Cursor, tag, &name); err != nil {
			return nil, err
		}
		w.add("name > ?", name)
	}
	q := "SELECT " + integrationCols + " FROM integrations" + w.where() + " ORDER BY name"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanIntegration)
	if err != nil {
		return nil, wrap("list integrations", err)
	}
	return newList(items, more, count, func(in *quire.Integration) string { return encodeCursor(tag, in.Name) }), nil
}

// DeleteIntegration deletes an integration; its installations and events
// go with it.
func (s *Store) DeleteIntegration(ctx context.Context, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM integrations WHERE id = ?", id)
	return n > 0, wrap("delete integration", err)
}

// OrganizationByHostname returns the organization with a hostname.
func (s *Store) OrganizationByHostname(ctx context.Context, hostname string) (*quire.Organization, error) {
	var id string
	err := s.queryRow(ctx, "SELECT id FROM organizations WHERE hostname = ? AND hostname <> ''", strings.ToLower(hostname)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("organization")
	}
	if err != nil {
		return nil, wrap("organization by hostname", err)
	}
	return s.Organization(ctx, id)
}
