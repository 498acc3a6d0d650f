package service

import (
	"context"

	"quire/internal/quire"
)

// writeSites makes the sites with their structure, customization and
// visitor schema, then the organization's default site, in one
// transaction. A basename another site of this server has is left out,
// with a warning. The key signing a site's visitor tokens is made when
// the site first needs it.
func (r *importRun) writeSites(ctx context.Context) error {
	s := r.x.s
	var warnings []string
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		warnings = nil
		for _, ms := range r.m.Sites {
			site := &quire.Site{ID: quire.NewID(), OrgID: r.res.Organization, Type: quire.SiteType(ms.Type), Title: ms.Title,
				Basename: ms.Basename, Visibility: quire.Visibility(ms.Visibility), Published: ms.Published,
				AdaptiveContent: ms.AdaptiveContent, AgentsContext: quire.SiteAgentsContext(ms.AgentsContext),
				Proxy: ms.Proxy, CreatedAt: ms.CreatedAt, UpdatedAt: r.x.s.Now()}
			err := st.WithTx(ctx, func(st quire.Store) error { return st.CreateSite(ctx, site) })
			if quire.ErrorCode(err) == quire.ECONFLICT && site.Basename != "" {
				warnings = append(warnings, "site "+ms.Title+": basename "+ms.Basename+" is left out: another site of this server has it")
				site.Basename = ""
				err = st.CreateSite(ctx, site)
			}
			if err != nil {
				return err
			}
			r.ids[ms.ID] = site.ID
			if err := r.writeSiteStructure(ctx, st, site.ID, ms); err != nil {
				return err
			}
		}
		if d := r.m.Organization.DefaultSite; d != "" {
			id := r.id(d)
			if _, err := st.UpdateOrganization(ctx, r.res.Organization, quire.OrganizationUpdate{DefaultSite: &id}); err != nil {
				return err
			}
		}
		return nil
	})
	for _, w := range warnings {
		r.warn("%s", w)
	}
	return err
}

// writeSiteStructure makes a site's section groups, sections and site
// spaces, then sets its defaults, customization and visitor schema.
func (r *importRun) writeSiteStructure(ctx context.Context, st quire.Store, siteID string, ms ManifestSite) error {
	for _, g := range ms.SectionGroups {
		ng := &quire.SiteSectionGroup{ID: quire.NewID(), SiteID: siteID, Parent: r.id(g.Parent), Title: g.Title,
			Icon: g.Icon, Position: g.Position, CreatedAt: g.CreatedAt}
		if err := st.CreateSiteSectionGroup(ctx, ng); err != nil {
			return err
		}
		r.ids[g.ID] = ng.ID
	}
	for _, sec := range ms.Sections {
		ns := &quire.SiteSection{ID: quire.NewID(), SiteID: siteID, Group: r.id(sec.Group), Title: sec.Title,
			Path: sec.Path, Description: sec.Description, Icon: sec.Icon, Condition: sec.Condition,
			Position: sec.Position, CreatedAt: sec.CreatedAt}
		if err := st.CreateSiteSection(ctx, ns); err != nil {
			return err
		}
		r.ids[sec.ID] = ns.ID
	}
	for _, ss := range ms.SiteSpaces {
		nss := &quire.SiteSpace{ID: quire.NewID(), SiteID: siteID, Section: r.id(ss.Section), SpaceID: r.id(ss.Space),
			Path: ss.Path, Condition: ss.Condition, Position: ss.Position, CreatedAt: ss.CreatedAt}
		if err := st.CreateSiteSpace(ctx, nss); err != nil {
			return err
		}
		r.ids[ss.ID] = nss.ID
	}
	for _, sec := range ms.Sections {
		if sec.DefaultSiteSpace == "" {
			continue
		}
		id := r.id(sec.DefaultSiteSpace)
		if err := st.UpdateSiteSection(ctx, r.id(sec.ID), quire.SiteSectionUpdate{DefaultSiteSpace: &id}); err != nil {
			return err
		}
	}
	if ms.DefaultSection != "" || ms.DefaultSiteSpace != "" {
		sec, ss := r.id(ms.DefaultSection), r.id(ms.DefaultSiteSpace)
		if _, err := st.UpdateSite(ctx, siteID, quire.SiteUpdate{DefaultSection: &sec, DefaultSiteSpace: &ss}); err != nil {
			return err
		}
	}
	if len(ms.Customization) > 0 && string(ms.Customization) != "null" {
		if err := st.PutSiteCustomization(ctx, siteID, ms.Customization); err != nil {
			return err
		}
	}
	if len(ms.AdaptiveSchema) > 0 && string(ms.AdaptiveSchema) != "null" {
		schema := &quire.SiteAdaptiveSchema{JSON: ms.AdaptiveSchema, UpdatedAt: r.x.s.Now()}
		if err := st.PutSiteAdaptiveSchema(ctx, siteID, schema); err != nil {
			return err
		}
	}
	return nil
}
