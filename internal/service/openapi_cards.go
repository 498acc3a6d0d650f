package service

import (
	"context"
	"sync"

	"quire/internal/apiref"
	"quire/internal/quire"
)

// OperationCards returns a resolver of the operation cards of the
// organization's OpenAPI specifications, from each one's latest version;
// each specification is read and parsed once per resolver.
func (s *Service) OperationCards(orgID string) func(ctx context.Context, slug, path, method string) (*apiref.Card, bool) {
	var (
		mu     sync.Mutex
		parsed = map[string]*apiref.Spec{}
	)
	return func(ctx context.Context, slug, path, method string) (*apiref.Card, bool) {
		mu.Lock()
		defer mu.Unlock()
		spec, seen := parsed[slug]
		if !seen {
			spec = s.latestSpec(ctx, orgID, slug)
			parsed[slug] = spec
		}
		if spec == nil {
			return nil, false
		}
		return spec.Card(path, method)
	}
}

// latestSpec parses the latest version of a specification; nil when
// there is none or it cannot be read.
func (s *Service) latestSpec(ctx context.Context, orgID, slug string) *apiref.Spec {
	spec, err := s.store.OpenAPISpec(ctx, orgID, slug)
	if err != nil {
		return nil
	}
	parsed, err := s.parseLatestVersion(ctx, spec)
	if err != nil {
		s.log.WarnContext(ctx, "openapi version unreadable", "spec", spec.ID, "err", err)
	}
	return parsed
}

// parseLatestVersion reads and parses the latest version of a
// specification: nil without an error when it has none, or none that
// parses (versions never change, so callers may keep that answer by
// version); an error only when the store could not be read.
func (s *Service) parseLatestVersion(ctx context.Context, spec *quire.OpenAPISpec) (*apiref.Spec, error) {
	if spec.LastVersion == "" {
		return nil, nil
	}
	v, err := s.store.OpenAPIVersion(ctx, spec.ID, spec.LastVersion)
	if quire.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	parsed, problems := apiref.Parse(v.Files, v.Main)
	if len(problems) > 0 {
		return nil, nil
	}
	return parsed, nil
}
