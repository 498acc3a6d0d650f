package service

import (
	"context"

	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/links"
	"quire/internal/quire"
)

// openAPIOpsCacheSize is how many specification versions' operation sets
// a links reader keeps; versions never change, so a kept set is never
// stale.
const openAPIOpsCacheSize = 64

// newOpenAPIOpsCache returns the cache of operation sets by version id.
func newOpenAPIOpsCache() *lru.Cache[string, map[links.Operation]bool] {
	c, _ := lru.New[string, map[links.Operation]bool](openAPIOpsCacheSize) // size > 0 cannot fail
	return c
}

// openAPICheck reads, in one statement, the organization's specifications
// the indexes reference, and returns the check of their references: a
// slug with no specification is broken, and so is an operation block
// whose operation the specification's latest version (when it has one
// that parses) does not hold.
func (l *Links) openAPICheck(ctx context.Context, orgID string, ixs ...*links.Index) (links.OpenAPICheck, error) {
	var slugs []string
	for _, ix := range ixs {
		if ix != nil {
			slugs = append(slugs, ix.OpenAPISpecs()...)
		}
	}
	if len(slugs) == 0 {
		return nil, nil
	}
	specs, err := l.svc.store.OpenAPISpecsBySlug(ctx, orgID, slugs)
	if err != nil {
		return nil, err
	}
	return func(slug string, ops []links.Operation) links.Status {
		spec, ok := specs[slug]
		if !ok {
			return links.StatusBroken
		}
		if len(ops) == 0 || spec.LastVersion == "" {
			return links.StatusOK
		}
		have := l.operations(ctx, spec)
		if have == nil {
			return links.StatusOK
		}
		for _, op := range ops {
			if !have[op] {
				return links.StatusBroken
			}
		}
		return links.StatusOK
	}, nil
}

// operations returns the operations of a specification's latest version;
// nil when it cannot be read or parsed, which leaves operations unchecked.
func (l *Links) operations(ctx context.Context, spec *quire.OpenAPISpec) map[links.Operation]bool {
	if have, ok := l.ops.Get(spec.LastVersion); ok {
		return have
	}
	parsed, err := l.svc.parseLatestVersion(ctx, spec)
	if err != nil {
		l.svc.log.WarnContext(ctx, "openapi version unreadable", "spec", spec.ID, "err", err)
		return nil
	}
	if parsed == nil {
		return nil
	}
	have := map[links.Operation]bool{}
	for _, op := range parsed.Operations() {
		have[links.Operation{Path: op.Path, Method: op.Method}] = true
	}
	l.ops.Add(spec.LastVersion, have)
	return have
}
