package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"quire/internal/quire"
)

// openAPISpecCols are the columns of openapi_specs in scanOpenAPISpec's
// order.
const openAPISpecCols = `id, org_id, slug, source_url, source_text, visibility, state, generation,
	last_version, last_processed_at, error_code, errors, etag, last_modified, checked_at, created_at, updated_at`

// scanOpenAPISpec reads the columns of openAPISpecCols.
func scanOpenAPISpec(sc scanner) (*quire.OpenAPISpec, error) {
	var (
		o                                 quire.OpenAPISpec
		visibility, state, code, problems string
		processed                         sql.NullInt64
		checked, created, updated         int64
	)
	if err := sc.Scan(&o.ID, &o.OrgID, &o.Slug, &o.SourceURL, &o.SourceText, &visibility, &state, &o.Generation,
		&o.LastVersion, &processed, &code, &problems, &o.ETag, &o.LastModified, &checked, &created, &updated); err != nil {
		return nil, err
	}
	o.Visibility, o.State, o.ErrorCode = quire.OpenAPIVisibility(visibility), quire.OpenAPIState(state), quire.OpenAPIErrorCode(code)
	o.LastProcessedAt = fromNullMillis(processed)
	o.CheckedAt, o.CreatedAt, o.UpdatedAt = fromOptMillis(checked), fromMillis(created), fromMillis(updated)
	if err := json.Unmarshal([]byte(problems), &o.Errors); err != nil {
		return nil, fmt.Errorf("decode processing errors: %w", err)
	}
	if len(o.Errors) == 0 {
		o.Errors = nil
	}
	return &o, nil
}

// encodeProblems renders processing problems as stored JSON text.
func encodeProblems(p []quire.OpenAPIProblem) string {
	if p == nil {
		p = []quire.OpenAPIProblem{}
	}
	b, _ := json.Marshal(p) // strings and integers only: cannot fail
	return string(b)
}

// CreateOpenAPISpec stores a new specification.
func (s *Store) CreateOpenAPISpec(ctx context.Context, o *quire.OpenAPISpec) error {
	_, err := s.exec(ctx, "INSERT INTO openapi_specs ("+openAPISpecCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.OrgID, o.Slug, o.SourceURL, o.SourceText, string(o.Visibility), string(o.State), o.Generation,
		o.LastVersion, nullMillis(o.LastProcessedAt), string(o.ErrorCode), encodeProblems(o.Errors), o.ETag, o.LastModified,
		optMillis(o.CheckedAt), millis(o.CreatedAt), millis(o.UpdatedAt))
	if err != nil {
		return s.conflict("create openapi spec", err, fmt.Sprintf("an OpenAPI specification with the slug %q already exists in the organization", o.Slug))
	}
	return nil
}

// OpenAPISpec returns a specification by slug.
func (s *Store) OpenAPISpec(ctx context.Context, orgID, slug string) (*quire.OpenAPISpec, error) {
	o, err := scanOpenAPISpec(s.queryRow(ctx, "SELECT "+openAPISpecCols+" FROM openapi_specs WHERE org_id = ? AND slug = ?", orgID, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("OpenAPI specification")
	}
	return o, wrap("get openapi spec", err)
}

// OpenAPISpecByID returns a specification by id.
func (s *Store) OpenAPISpecByID(ctx context.Context, id string) (*quire.OpenAPISpec, error) {
	o, err := scanOpenAPISpec(s.queryRow(ctx, "SELECT "+openAPISpecCols+" FROM openapi_specs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("OpenAPI specification")
	}
	return o, wrap("get openapi spec", err)
}

// OpenAPISpecs lists an organization's specifications, oldest first.
func (s *Store) OpenAPISpecs(ctx context.Context, orgID string, p quire.Page) (*quire.List[*quire.OpenAPISpec], error) {
	const tag = "oas"
	var w filter
	w.add("org_id = ?", orgID)
	count, err := s.count(ctx, "SELECT COUNT(*) FROM openapi_specs"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list openapi specs", err)
	}
	if err := seekCreatedBy(&w, p.Cursor, tag, "created_at", "id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + openAPISpecCols + " FROM openapi_specs" + w.where() + " ORDER BY created_at, id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanOpenAPISpec)
	if err != nil {
		return nil, wrap("list openapi specs", err)
	}
	return newList(items, more, count, func(o *quire.OpenAPISpec) string {
		return encodeCursor(tag, millis(o.CreatedAt), o.ID)
	}), nil
}

// UpdateOpenAPISpec writes a specification's mutable fields.
func (s *Store) UpdateOpenAPISpec(ctx context.Context, o *quire.OpenAPISpec, ifGeneration int64) (bool, error) {
	q := `UPDATE openapi_specs SET source_url = ?, source_text = ?, visibility = ?, state = ?, generation = ?,
		last_version = ?, last_processed_at = ?, error_code = ?, errors = ?, etag = ?, last_modified = ?,
		checked_at = ?, updated_at = ? WHERE id = ?`
	args := []any{o.SourceURL, o.SourceText, string(o.Visibility), string(o.State), o.Generation,
		o.LastVersion, nullMillis(o.LastProcessedAt), string(o.ErrorCode), encodeProblems(o.Errors), o.ETag, o.LastModified,
		optMillis(o.CheckedAt), millis(o.UpdatedAt), o.ID}
	if ifGeneration >= 0 {
		q += " AND generation = ?"
		args = append(args, ifGeneration)
	}
	n, err := s.exec(ctx, q, args...)
	if err != nil {
		return false, wrap("update openapi spec", err)
	}
	if n > 0 {
		return true, nil
	}
	if _, err := s.OpenAPISpecByID(ctx, o.ID); err != nil {
		return false, err
	}
	return false, nil
}

// DeleteOpenAPISpec deletes a specification; its versions go with it.
func (s *Store) DeleteOpenAPISpec(ctx context.Context, orgID, slug string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM openapi_specs WHERE org_id = ? AND slug = ?", orgID, slug)
	return n > 0, wrap("delete openapi spec", err)
}

// AddOpenAPIVersion stores a version.
func (s *Store) AddOpenAPIVersion(ctx context.Context, v *quire.OpenAPIVersion) error {
	files, err := json.Marshal(v.Files)
	if err != nil {
		return wrap("add openapi version", err)
	}
	_, err = s.exec(ctx, "INSERT INTO openapi_spec_versions (id, spec_id, hash, main_file, files, created_at) VALUES (?, ?, ?, ?, ?, ?)",
		v.ID, v.SpecID, v.Hash, v.Main, string(files), millis(v.CreatedAt))
	if err != nil {
		return s.conflict("add openapi version", err, "a version with this id already exists")
	}
	return nil
}

// OpenAPIVersion returns a version of a specification with its files.
func (s *Store) OpenAPIVersion(ctx context.Context, specID, id string) (*quire.OpenAPIVersion, error) {
	var (
		v       quire.OpenAPIVersion
		files   string
		created int64
	)
	err := s.queryRow(ctx, "SELECT id, spec_id, hash, main_file, files, created_at FROM openapi_spec_versions WHERE spec_id = ? AND id = ?",
		specID, id).Scan(&v.ID, &v.SpecID, &v.Hash, &v.Main, &files, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("OpenAPI specification version")
	}
	if err != nil {
		return nil, wrap("get openapi version", err)
	}
	if err := json.Unmarshal([]byte(files), &v.Files); err != nil {
		return nil, wrap("get openapi version", fmt.Errorf("decode files: %w", err))
	}
	v.CreatedAt = fromMillis(created)
	return &v, nil
}

// scanOpenAPIVersionHead reads a version's columns but its files.
func scanOpenAPIVersionHead(sc scanner) (*quire.OpenAPIVersion, error) {
	var (
		v       quire.OpenAPIVersion
		created int64
	)
	if err := sc.Scan(&v.ID, &v.SpecID, &v.Hash, &v.Main, &created); err != nil {
		return nil, err
	}
	v.CreatedAt = fromMillis(created)
	return &v, nil
}

// OpenAPIVersions lists a specification's versions, newest first.
func (s *Store) OpenAPIVersions(ctx context.Context, specID string, p quire.Page) (*quire.List[*quire.OpenAPIVersion], error) {
	const tag = "oav"
	var w filter
	w.add("spec_id = ?", specID)
	count, err := s.count(ctx, "SELECT COUNT(*) FROM openapi_spec_versions"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list openapi versions", err)
	}
	if err := seekCreatedBy(&w, p.Cursor, tag, "created_at", "id", true); err != nil {
		return nil, err
	}
	q := "SELECT id, spec_id, hash, main_file, created_at FROM openapi_spec_versions" + w.where() + " ORDER BY created_at DESC, id DESC"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanOpenAPIVersionHead)
	if err != nil {
		return nil, wrap("list openapi versions", err)
	}
	return newList(items, more, count, func(v *quire.OpenAPIVersion) string {
		return encodeCursor(tag, millis(v.CreatedAt), v.ID)
	}), nil
}

// OpenAPISpecsDue lists specifications with a source URL checked before
// the given time, and those whose processing has not completed since a
// change before it.
func (s *Store) OpenAPISpecsDue(ctx context.Context, before time.Time, limit int) ([]*quire.OpenAPISpec, error) {
	items, _, err := fetchPage(ctx, s, "SELECT "+openAPISpecCols+` FROM openapi_specs
		WHERE (source_url <> '' AND checked_at < ?) OR (state <> 'complete' AND updated_at < ?)
		ORDER BY checked_at, id`, []any{millis(before), millis(before)}, limit, scanOpenAPISpec)
	if len(items) > limit {
		items = items[:limit]
	}
	return items, wrap("list openapi specs due", err)
}
