package sqlstore

import (
	"context"

	"quire/internal/quire"
)

// OpenAPISpecsBySlug returns the specifications of an organization named
// by slugs, in one statement, keyed by slug; slugs with no specification
// are absent.
func (s *Store) OpenAPISpecsBySlug(ctx context.Context, orgID string, slugs []string) (map[string]*quire.OpenAPISpec, error) {
	out := make(map[string]*quire.OpenAPISpec, len(slugs))
	if len(slugs) == 0 {
		return out, nil
	}
	marks, args := inList([]any{orgID}, slugs)
	rows, err := s.query(ctx, "SELECT "+openAPISpecCols+" FROM openapi_specs WHERE org_id = ? AND slug IN ("+marks+")", args...)
	if err != nil {
		return nil, wrap("openapi specs by slug", err)
	}
	defer rows.Close()
	for rows.Next() {
		o, err := scanOpenAPISpec(rows)
		if err != nil {
			return nil, wrap("openapi specs by slug", err)
		}
		out[o.Slug] = o
	}
	return out, wrap("openapi specs by slug", rows.Err())
}
