package service

import (
	"context"
	"errors"

	"quire/internal/adaptive"
	"quire/internal/quire"
)

// SiteAdaptiveSchema returns a site's visitor schema; ENOTFOUND when the
// site has none.
func (s *Sites) SiteAdaptiveSchema(ctx context.Context, orgID, siteID string) (*quire.SiteAdaptiveSchema, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return s.svc.store.SiteAdaptiveSchema(ctx, site.ID)
}

// PutSiteAdaptiveSchema checks a visitor schema (draft-07, in the
// published shape) and keeps it, compacted. A refused schema is EINVALID
// on jsonSchema, naming where in it the problem is.
func (s *Sites) PutSiteAdaptiveSchema(ctx context.Context, orgID, siteID string, raw []byte) (*quire.SiteAdaptiveSchema, error) {
	sch, err := adaptive.ParseSchema(raw)
	if err != nil {
		var se *adaptive.SchemaError
		if errors.As(err, &se) {
			return nil, quire.Invalid("jsonSchema"+se.Pointer, "%s", se.Message)
		}
		return nil, quire.Invalid("jsonSchema", "%s", err.Error())
	}
	compact, err := sch.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := &quire.SiteAdaptiveSchema{JSON: compact, UpdatedAt: s.svc.Now()}
	err = s.svc.store.WithTx(ctx, func(st quire.Store) error {
		site, err := siteIn(ctx, st, orgID, siteID)
		if err != nil {
			return err
		}
		return st.PutSiteAdaptiveSchema(ctx, site.ID, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SiteTemplateConditions lists the conditions a site's visitor schema
// suggests; none when it has no schema.
func (s *Sites) SiteTemplateConditions(ctx context.Context, orgID, siteID string) ([]adaptive.TemplateCondition, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	sch, err := visitorSchema(ctx, s.svc.store, site)
	if err != nil {
		return nil, err
	}
	return sch.TemplateConditions(), nil
}

// visitorSchema parses a site's visitor schema, or gives the schema
// without claims when it has none, so that no condition may name one.
func visitorSchema(ctx context.Context, st quire.Store, site *quire.Site) (*adaptive.Schema, error) {
	stored, err := st.SiteAdaptiveSchema(ctx, site.ID)
	if quire.IsNotFound(err) {
		return adaptive.EmptySchema(), nil
	}
	if err != nil {
		return nil, err
	}
	return adaptive.ParseSchema(stored.JSON)
}

// checkCondition type-checks a condition against the site's visitor
// schema; a refused one is EINVALID on field, with the line and column of
// the error.
func (s *Sites) checkCondition(ctx context.Context, st quire.Store, site *quire.Site, field, cond string) error {
	sch, err := visitorSchema(ctx, st, site)
	if err != nil {
		return err
	}
	if err := sch.CheckCondition(cond); err != nil {
		var ce *adaptive.ConditionError
		if errors.As(err, &ce) {
			return quire.Invalid(field, "%s", ce.Error())
		}
		return quire.Invalid(field, "%s", err.Error())
	}
	return nil
}

// CheckSiteCondition checks a condition against a site's visitor schema
// as saving it on a section or a site space would; a blank condition
// always holds. A refused one is EINVALID on field.
func (s *Sites) CheckSiteCondition(ctx context.Context, orgID, siteID, field, cond string) error {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil || cond == "" {
		return err
	}
	return s.checkCondition(ctx, s.svc.store, site, field, cond)
}
