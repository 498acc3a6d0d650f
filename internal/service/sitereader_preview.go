package service

import (
	"context"

	"quire/internal/quire"
)

// Preview opens a site as a visitor without claims would read it, for a
// member changing how it looks: published or not, with custom in place
// of the stored customization (nil keeps the stored one), and with base
// as the address every link of its pages starts with. Only the site
// spaces whose space the member may read are shown, so a preview never
// shows content the member could not open in the app. Nothing of it is
// kept: each preview reads the site anew.
func (r *SiteReader) Preview(ctx context.Context, u *quire.User, orgID, siteID, base string, custom *quire.SiteCustomizationSettings) (*SiteVisit, error) {
	st := r.svc.store
	site, err := r.owner.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	tree, err := st.SiteTree(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	levels, err := r.svc.spaceLevels(ctx, u, tree.Spaces)
	if err != nil {
		return nil, err
	}
	readable := *tree
	readable.Spaces = nil
	for _, sp := range tree.Spaces {
		if levels[sp.ID] >= quire.LevelRead {
			readable.Spaces = append(readable.Spaces, sp)
		}
	}
	var c *quire.SiteCustomizationSettings
	if custom != nil {
		copied := *custom
		copied.Normalize()
		c = &copied
	} else if c, err = siteCustomization(ctx, st, site); err != nil {
		return nil, err
	}
	schema, err := visitorSchema(ctx, st, site)
	if err != nil {
		return nil, err
	}
	snap := &siteSnapshot{site: site, structure: buildStructure(site, &readable, levels), custom: c, schema: schema}
	v := &SiteVisit{Site: site, Structure: snap.structure, Customization: c, schema: schema, Base: base, snap: snap}
	view := r.filter(snap, v)
	v.Sections, v.SiteSpaces, v.fingerprint = view.sections, view.siteSpaces, view.fingerprint
	return v, nil
}
