package service

import (
	"context"

	"quire/internal/quire"
)

// InstalledIntegration is an integration's installation in one
// organization with what it covers: every space (site) of the
// organization when its selection is "all", else the spaces (sites) it
// was installed on.
type InstalledIntegration struct {
	Integration  *quire.Integration
	Installation *quire.IntegrationInstallation
	// Spaces and Sites are the spaces and sites installed on, in the
	// order they were installed; empty when the selection is "all".
	Spaces []*quire.Space
	Sites  []*quire.Site
}

// InstallationIn returns the installation of an integration in an
// organization with what it covers, for those who may read it through
// the API: the organization's admins and those who speak for the
// integration. An integration not installed there is ENOTFOUND.
func (n *Integrations) InstallationIn(ctx context.Context, u *quire.User, name, orgID string) (*InstalledIntegration, error) {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return nil, err
	}
	inst, err := n.s.store.InstallationIn(ctx, in.ID, orgID)
	if err != nil {
		return nil, err
	}
	if in, inst, err = n.installation(ctx, u, name, inst.ID); err != nil {
		return nil, err
	}
	out := &InstalledIntegration{Integration: in, Installation: inst}
	if inst.SpaceSelection != quire.SelectionAll {
		ids, err := n.s.store.InstallationTargets(ctx, inst.ID, quire.OnSpace)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			sp, err := n.s.store.Space(ctx, id)
			if quire.IsNotFound(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			out.Spaces = append(out.Spaces, sp)
		}
	}
	if inst.SiteSelection != quire.SelectionAll {
		ids, err := n.s.store.InstallationTargets(ctx, inst.ID, quire.OnSite)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			site, err := n.s.store.Site(ctx, id)
			if quire.IsNotFound(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			out.Sites = append(out.Sites, site)
		}
	}
	return out, nil
}
