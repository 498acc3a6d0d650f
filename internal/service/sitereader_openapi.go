package service

import (
	"context"
	"strings"
	"sync"

	"quire/internal/apiref"
	"quire/internal/document"
	"quire/internal/quire"
)

// parsedSpecsSize is how many specification versions a SiteReader keeps
// parsed; versions never change.
const parsedSpecsSize = 32

// specCards is a parsed specification version and the cards made of it.
// The parsed model builds parts of itself when first read, so it is read
// under mu.
type specCards struct {
	mu    sync.Mutex
	spec  *apiref.Spec // nil: the version does not parse
	cards map[apiref.Operation]*apiref.Card
}

// card returns the card of an operation, nil when the version lacks it.
func (c *specCards) card(path, method string) *apiref.Card {
	if c.spec == nil {
		return nil
	}
	key := apiref.Operation{Path: path, Method: strings.ToLower(method)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if card, seen := c.cards[key]; seen {
		return card
	}
	card, ok := c.spec.Card(path, method)
	if !ok {
		card = nil
	}
	c.cards[key] = card
	return card
}

// openAPISpec returns the organization's specification of a slug, nil
// when there is none. It is looked up once per site version: the
// version moves when a specification is created, deleted or gets a new
// version.
func (r *SiteReader) openAPISpec(ctx context.Context, s *siteSnapshot, slug string) (*quire.OpenAPISpec, error) {
	return s.specs.get(slug, func() (*quire.OpenAPISpec, error) {
		spec, err := r.svc.store.OpenAPISpec(ctx, s.site.OrgID, slug)
		if quire.IsNotFound(err) {
			return nil, nil
		}
		return spec, err
	})
}

// operationCard returns the reference card of an operation of a
// specification of the site's organization, from its latest version; nil
// when there is no such specification, version or operation.
func (r *SiteReader) operationCard(ctx context.Context, s *siteSnapshot, slug, path, method string) (*apiref.Card, error) {
	spec, err := r.openAPISpec(ctx, s, slug)
	if err != nil || spec == nil || spec.LastVersion == "" {
		return nil, err
	}
	cards, ok := r.specs.Get(spec.LastVersion)
	if !ok {
		parsed, err := r.svc.parseLatestVersion(ctx, spec)
		if err != nil {
			return nil, err
		}
		cards = &specCards{spec: parsed, cards: map[apiref.Operation]*apiref.Card{}}
		r.specs.Add(spec.LastVersion, cards)
	}
	return cards.card(path, method), nil
}

// Operation shows an openapi-operation block naming a specification as
// its operation's reference card, or as a note when the operation cannot
// be found; nil for other blocks, which keep their plain card. A store
// read that fails is kept for Err, so that the page is not kept with a
// note it does not deserve.
func (p *SitePage) Operation(n document.Node) *SiteOperation {
	if n.Type != document.TypeOpenAPIOp {
		return nil
	}
	ref, ok := document.RefOf(n.Data["ref"])
	if !ok || ref.Spec == "" {
		return nil
	}
	path, _ := n.Data["path"].(string)
	method, _ := n.Data["method"].(string)
	x := p.refs
	card, err := x.r.operationCard(x.ctx, p.Visit.snap, ref.Spec, path, method)
	if err != nil && x.failed == nil {
		x.failed = err
	}
	if card != nil {
		return &SiteOperation{Card: card}
	}
	return &SiteOperation{Method: strings.ToUpper(method), Path: path,
		Missing: "This operation was not found in the OpenAPI specification “" + ref.Spec + "”."}
}
