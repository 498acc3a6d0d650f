package service

import (
	"context"
	"strings"

	"quire/internal/document"
	"quire/internal/quire"
)

// MaxListedOpenAPIOperations bounds how many operations Operations lists:
// a writer picks among them, and each costs the reading of its card.
const MaxListedOpenAPIOperations = 1000

// OpenAPIOperation is an operation of an organization's specification,
// as a writer picks it to show in a page.
type OpenAPIOperation struct {
	// Spec is the specification's slug, Title the title of its info.
	Spec, Title string
	// Method (upper case) and Path name the operation.
	Method, Path string
	Summary      string
	OperationID  string
}

// Operations lists the operations of the latest version of each of the
// organization's specifications: specification by specification, oldest
// first, each in document order; a specification without a version that
// parses has none. It stops at MaxListedOpenAPIOperations.
func (o *OpenAPISpecs) Operations(ctx context.Context, orgID string) ([]OpenAPIOperation, error) {
	var out []OpenAPIOperation
	p := quire.Page{Limit: quire.MaxLimit}
	for {
		l, err := o.List(ctx, orgID, p)
		if err != nil {
			return nil, err
		}
		for _, spec := range l.Items {
			parsed, err := o.s.parseLatestVersion(ctx, spec)
			if err != nil {
				return nil, err
			}
			if parsed == nil {
				continue
			}
			for _, op := range parsed.Operations() {
				if len(out) == MaxListedOpenAPIOperations {
					return out, nil
				}
				item := OpenAPIOperation{Spec: spec.Slug, Title: parsed.Title(), Method: op.Method, Path: op.Path}
				if c, ok := parsed.Card(op.Path, op.Method); ok {
					item.Summary, item.OperationID = c.Summary, c.OperationID
				}
				out = append(out, item)
			}
		}
		if l.Next == "" {
			return out, nil
		}
		p.Cursor = l.Next
	}
}

// SpaceOperations returns the resolver of the openapi-operation blocks of
// a space read, as SitePage.Operation resolves a site's: each block
// naming a specification of the space's organization shows its
// operation's reference card from the latest version, or a note when the
// operation cannot be found; nil for other blocks. Each specification is
// read and parsed once per resolver.
func (s *Service) SpaceOperations(x *SpaceRead) func(document.Node) *SiteOperation {
	cards := s.OperationCards(x.Space.OrgID)
	return func(n document.Node) *SiteOperation {
		if n.Type != document.TypeOpenAPIOp {
			return nil
		}
		ref, ok := document.RefOf(n.Data["ref"])
		if !ok || ref.Spec == "" {
			return nil
		}
		path, _ := n.Data["path"].(string)
		method, _ := n.Data["method"].(string)
		if card, ok := cards(x.ctx, ref.Spec, path, method); ok {
			return &SiteOperation{Card: card}
		}
		return &SiteOperation{Method: strings.ToUpper(method), Path: path,
			Missing: "This operation was not found in the OpenAPI specification “" + ref.Spec + "”."}
	}
}
