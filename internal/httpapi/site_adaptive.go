package httpapi

import (
	"context"
	"encoding/json"

	"quire/internal/quire"
)

// siteAdaptiveSchemaJSON is the SiteAdaptiveSchema object.
type siteAdaptiveSchemaJSON struct {
	Object     string          `json:"object" enum:"site-adaptive-schema"`
	JSONSchema json.RawMessage `json:"jsonSchema" doc:"Draft-07 JSON Schema of the visitor's claims"`
	UpdatedAt  string          `json:"updatedAt" format:"date-time"`
}

// templateConditionJSON is a condition suggested by a visitor schema.
type templateConditionJSON struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// templateConditionsJSON is the answer of listSiteAdaptiveTemplateConditions.
type templateConditionsJSON struct {
	Items []templateConditionJSON `json:"items"`
}

// adaptiveSchemaOut converts a visitor schema.
func adaptiveSchemaOut(a *quire.SiteAdaptiveSchema) siteAdaptiveSchemaJSON {
	return siteAdaptiveSchemaJSON{Object: "site-adaptive-schema", JSONSchema: a.JSON, UpdatedAt: timestamp(a.UpdatedAt)}
}

func (s *Server) getSiteAdaptiveSchema(ctx context.Context, in *SitePath) (*body[siteAdaptiveSchemaJSON], error) {
	a, err := s.siteSvc.SiteAdaptiveSchema(ctx, in.OrganizationID, in.SiteID)
	if err != nil {
		return nil, err
	}
	return reply(adaptiveSchemaOut(a)), nil
}

func (s *Server) updateSiteAdaptiveSchema(ctx context.Context, in *struct {
	SitePath
	Body struct {
		JSONSchema json.RawMessage `json:"jsonSchema" doc:"Draft-07 JSON Schema of the visitor's claims, in the published shape"`
	}
}) (*body[siteAdaptiveSchemaJSON], error) {
	a, err := s.siteSvc.PutSiteAdaptiveSchema(ctx, in.OrganizationID, in.SiteID, in.Body.JSONSchema)
	if err != nil {
		return nil, err
	}
	return reply(adaptiveSchemaOut(a)), nil
}

func (s *Server) listSiteTemplateConditions(ctx context.Context, in *SitePath) (*body[templateConditionsJSON], error) {
	list, err := s.siteSvc.SiteTemplateConditions(ctx, in.OrganizationID, in.SiteID)
	if err != nil {
		return nil, err
	}
	out := templateConditionsJSON{Items: make([]templateConditionJSON, 0, len(list))}
	for _, c := range list {
		out.Items = append(out.Items, templateConditionJSON{Description: c.Description, Condition: c.Condition})
	}
	return reply(out), nil
}
