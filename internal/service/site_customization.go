package service

import (
	"context"
	"encoding/json"
	"fmt"

	"quire/internal/quire"
)

// SiteCustomization returns how a site looks: what was last set, or the
// defaults of a new site.
func (s *Sites) SiteCustomization(ctx context.Context, orgID, siteID string) (*quire.SiteCustomizationSettings, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return siteCustomization(ctx, s.svc.store, site)
}

// siteCustomization reads a site's customization, or the defaults.
func siteCustomization(ctx context.Context, st quire.Store, site *quire.Site) (*quire.SiteCustomizationSettings, error) {
	raw, err := st.SiteCustomization(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	c := quire.DefaultSiteCustomization()
	if raw == nil {
		return &c, nil
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("site %s: stored customization: %w", site.ID, err)
	}
	c.Normalize()
	return &c, nil
}

// PutSiteCustomization replaces how a site looks. The conditions of header
// links are type-checked against the site's visitor schema.
func (s *Sites) PutSiteCustomization(ctx context.Context, orgID, siteID string, c quire.SiteCustomizationSettings) (*quire.SiteCustomizationSettings, error) {
	c.Normalize()
	err := s.svc.store.WithTx(ctx, func(st quire.Store) error {
		site, err := siteIn(ctx, st, orgID, siteID)
		if err != nil {
			return err
		}
		for i, item := range c.Header.Links {
			if item.Condition == "" {
				continue
			}
			if err := s.checkCondition(ctx, st, site, fmt.Sprintf("header.links[%d].condition", i), item.Condition); err != nil {
				return err
			}
		}
		raw, err := json.Marshal(c)
		if err != nil {
			return err
		}
		return st.PutSiteCustomization(ctx, site.ID, raw)
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// PublishedSite is a site as its readers get it: the site, its structure,
// and its customization, the same for every site space.
type PublishedSite struct {
	Structure     *SiteStructure
	Customization *quire.SiteCustomizationSettings
}

// PublishedSite reads a site's published profile, for a member or, with a
// share key, for the holder of that key.
func (s *Sites) PublishedSite(ctx context.Context, u *quire.User, orgID, siteID, shareKey string) (*PublishedSite, error) {
	st, err := s.SiteStructure(ctx, u, orgID, siteID, shareKey)
	if err != nil {
		return nil, err
	}
	c, err := siteCustomization(ctx, s.svc.store, st.Site)
	if err != nil {
		return nil, err
	}
	return &PublishedSite{Structure: st, Customization: c}, nil
}
