package service

import (
	"context"
	"encoding/json"

	"quire/internal/quire"
)

// installStatus is the status of a new or reconfigured installation:
// pending while its configuration misses what the manifest requires,
// active otherwise.
func installStatus(decl []byte, cfg map[string]any) string {
	if checkConfiguration(decl, cfg, "configuration") != nil {
		return quire.InstallationPending
	}
	return quire.InstallationActive
}

// Install installs an integration in an organization the caller
// administers. A private integration installs only in its own
// organization.
func (n *Integrations) Install(ctx context.Context, u *quire.User, name, orgID string) (*quire.Integration, *quire.IntegrationInstallation, error) {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return nil, nil, err
	}
	if err := n.s.requireIntegrationAdmin(ctx, u, orgID); err != nil {
		return nil, nil, err
	}
	if in.Manifest.Visibility == quire.IntegrationPrivate && in.OrgID != orgID {
		return nil, nil, quire.Errorf(quire.EFORBIDDEN, "the integration %q is private to its organization", name)
	}
	now := n.s.Now()
	inst := &quire.IntegrationInstallation{ID: quire.NewID(), IntegrationID: in.ID, OrgID: orgID,
		Status: installStatus(in.Manifest.Configurations.Account, nil), SpaceSelection: quire.SelectionSelected,
		SiteSelection: quire.SelectionSelected, Configuration: map[string]any{}, ExternalIDs: []string{},
		CreatedAt: now, UpdatedAt: now}
	err = n.s.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.CreateInstallation(ctx, inst); err != nil {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, ActorID: u.ID, Action: quire.AuditIntegrationInstalled,
			TargetKind: quire.AuditTargetInstallation, TargetID: inst.ID, Details: map[string]string{"integration": in.Name}})
	})
	if err != nil {
		return nil, nil, err
	}
	n.emit(ctx, in, inst.ID, "", "", map[string]any{"type": "installation_setup", "status": inst.Status})
	return in, inst, nil
}

// installation returns an installation of an integration the caller
// administers: as an admin of its organization, or speaking for the
// integration.
func (n *Integrations) installation(ctx context.Context, u *quire.User, name, id string) (*quire.Integration, *quire.IntegrationInstallation, error) {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return nil, nil, err
	}
	inst, err := n.s.store.Installation(ctx, in.ID, id)
	if err != nil {
		return nil, nil, err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		if err := n.s.requireIntegrationAdmin(ctx, u, inst.OrgID); err != nil {
			if quire.ErrorCode(err) == quire.ENOTFOUND {
				return nil, nil, quire.NotFound("installation")
			}
			return nil, nil, err
		}
	}
	return in, inst, nil
}

// Installation returns an installation.
func (n *Integrations) Installation(ctx context.Context, u *quire.User, name, id string) (*quire.Integration, *quire.IntegrationInstallation, error) {
	return n.installation(ctx, u, name, id)
}

// Installations lists an integration's installations, for those who speak
// for it.
func (n *Integrations) Installations(ctx context.Context, u *quire.User, name, externalID string, p quire.Page) (*quire.Integration, *quire.List[*quire.IntegrationInstallation], error) {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return nil, nil, err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		return nil, nil, err
	}
	l, err := n.s.store.Installations(ctx, in.ID, externalID, p)
	return in, l, err
}

// InstallationUpdate changes an installation; nil fields stay.
type InstallationUpdate struct {
	ExternalIDs    *[]string
	Configuration  map[string]any
	SpaceSelection *string
	SiteSelection  *string
}

// UpdateInstallation changes an installation; a configuration is checked
// against the manifest's account configuration, and a new one sets the
// installation up again.
func (n *Integrations) UpdateInstallation(ctx context.Context, u *quire.User, name, id string, upd InstallationUpdate) (*quire.Integration, *quire.IntegrationInstallation, error) {
	in, inst, err := n.installation(ctx, u, name, id)
	if err != nil {
		return nil, nil, err
	}
	prev := *inst
	if upd.Configuration != nil {
		if err := checkConfiguration(in.Manifest.Configurations.Account, upd.Configuration, "configuration"); err != nil {
			return nil, nil, err
		}
		inst.Configuration, inst.Status = upd.Configuration, quire.InstallationActive
	}
	if upd.ExternalIDs != nil {
		inst.ExternalIDs = *upd.ExternalIDs
	}
	if upd.SpaceSelection != nil {
		inst.SpaceSelection = *upd.SpaceSelection
	}
	if upd.SiteSelection != nil {
		inst.SiteSelection = *upd.SiteSelection
	}
	inst.UpdatedAt = n.s.Now()
	if err := n.s.store.UpdateInstallation(ctx, inst); err != nil {
		return nil, nil, err
	}
	if upd.Configuration != nil {
		n.emit(ctx, in, inst.ID, "", "", map[string]any{"type": "installation_setup", "status": inst.Status,
			"previous": map[string]any{"status": prev.Status, "configuration": prev.Configuration}})
	}
	return in, inst, nil
}

// Uninstall removes an installation with its space and site
// installations; it reports whether there was one.
func (n *Integrations) Uninstall(ctx context.Context, u *quire.User, name, id string) (bool, error) {
	in, inst, err := n.installation(ctx, u, name, id)
	if quire.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var ok bool
	err = n.s.store.WithTx(ctx, func(st quire.Store) error {
		var err error
		if ok, err = st.DeleteInstallation(ctx, inst.ID); err != nil || !ok {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: inst.OrgID, ActorID: u.ID, Action: quire.AuditIntegrationUninstalled,
			TargetKind: quire.AuditTargetInstallation, TargetID: inst.ID, Details: map[string]string{"integration": in.Name}})
	})
	if ok {
		n.emit(ctx, in, inst.ID, "", "", map[string]any{"type": "installation_deleted",
			"previous": map[string]any{"configuration": inst.Configuration}})
	}
	return ok, err
}

// InstallationToken returns a short-lived token of an installation, for
// those who speak for the integration.
func (n *Integrations) InstallationToken(ctx context.Context, u *quire.User, name, id string) (string, error) {
	in, inst, err := n.installation(ctx, u, name, id)
	if err != nil {
		return "", err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		return "", err
	}
	return n.s.signIntegrationToken(ctx, in.ID, inst.ID, n.opts.TokenTTL)
}

// contentTarget checks that a space or site exists in an organization
// and that the integration may be installed on that kind of content.
func (n *Integrations) contentTarget(ctx context.Context, u *quire.User, in *quire.Integration, inst *quire.IntegrationInstallation, kind quire.InstallationTarget, targetID string) error {
	if t := in.Manifest.Target; t != "all" && t != string(kind) {
		return quire.Errorf(quire.EINVALID, "the integration %q installs on %s, not on a %s", in.Name, t, kind)
	}
	if kind == quire.OnSite {
		site, err := n.s.store.Site(ctx, targetID)
		if err != nil || site.OrgID != inst.OrgID {
			return quire.NotFound("site")
		}
		return nil
	}
	sp, err := n.s.store.Space(ctx, targetID)
	if err != nil || sp.OrgID != inst.OrgID || sp.DeletedAt != nil {
		return quire.NotFound("space")
	}
	if u.Integration == nil {
		l, err := n.s.Level(ctx, u, ScopeSpace, sp.ID)
		if err != nil {
			return err
		}
		if l < quire.LevelAdmin {
			return quire.Errorf(quire.EFORBIDDEN, "installing an integration on a space needs the admin role on it; you have %s", l)
		}
	}
	return nil
}

// contentConfig returns the configuration schema the manifest declares
// for a kind of content.
func contentConfig(in *quire.Integration, kind quire.InstallationTarget) json.RawMessage {
	if kind == quire.OnSite {
		return in.Manifest.Configurations.Site
	}
	return in.Manifest.Configurations.Space
}

// InstallOn installs an installation on a space or a site of its
// organization.
func (n *Integrations) InstallOn(ctx context.Context, u *quire.User, name, id string, kind quire.InstallationTarget, targetID string) (*quire.Integration, *quire.ContentInstallation, error) {
	in, inst, err := n.installation(ctx, u, name, id)
	if err != nil {
		return nil, nil, err
	}
	if err := n.contentTarget(ctx, u, in, inst, kind, targetID); err != nil {
		return nil, nil, err
	}
	now := n.s.Now()
	c, err := n.s.store.ContentInstallation(ctx, inst.ID, kind, targetID)
	if quire.IsNotFound(err) {
		c, err = &quire.ContentInstallation{InstallationID: inst.ID, IntegrationID: in.ID, Kind: kind, TargetID: targetID,
			Status: installStatus(contentConfig(in, kind), nil), Configuration: map[string]any{}, ExternalIDs: []string{},
			CreatedAt: now}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	c.UpdatedAt = now
	if err := n.s.store.PutContentInstallation(ctx, c); err != nil {
		return nil, nil, err
	}
	n.emitContent(ctx, in, c, map[string]any{"type": string(kind) + "_installation_setup", "status": c.Status})
	return in, c, nil
}

// ContentInstallation returns a space or site installation.
func (n *Integrations) ContentInstallation(ctx context.Context, u *quire.User, name, id string, kind quire.InstallationTarget, targetID string) (*quire.Integration, *quire.ContentInstallation, error) {
	in, inst, err := n.installation(ctx, u, name, id)
	if err != nil {
		return nil, nil, err
	}
	c, err := n.s.store.ContentInstallation(ctx, inst.ID, kind, targetID)
	return in, c, err
}

// ContentUpdate changes a space or site installation; nil fields stay.
type ContentUpdate struct {
	ExternalIDs   *[]string
	Configuration map[string]any
}

// UpdateContentInstallation changes a space or site installation; a
// configuration is checked against the manifest's space or site
// configuration and sets it up again.
func (n *Integrations) UpdateContentInstallation(ctx context.Context, u *quire.User, name, id string, kind quire.InstallationTarget, targetID string, upd ContentUpdate) (*quire.Integration, *quire.ContentInstallation, error) {
	in, c, err := n.ContentInstallation(ctx, u, name, id, kind, targetID)
	if err != nil {
		return nil, nil, err
	}
	prev := *c
	if upd.Configuration != nil {
		if err := checkConfiguration(contentConfig(in, kind), upd.Configuration, "configuration"); err != nil {
			return nil, nil, err
		}
		c.Configuration, c.Status = upd.Configuration, quire.InstallationActive
	}
	if upd.ExternalIDs != nil {
		c.ExternalIDs = *upd.ExternalIDs
	}
	c.UpdatedAt = n.s.Now()
	if err := n.s.store.PutContentInstallation(ctx, c); err != nil {
		return nil, nil, err
	}
	if upd.Configuration != nil {
		n.emitContent(ctx, in, c, map[string]any{"type": string(kind) + "_installation_setup", "status": c.Status,
			"previous": map[string]any{"status": prev.Status, "configuration": prev.Configuration}})
	}
	return in, c, nil
}

// UninstallFrom removes a space or site installation; it reports whether
// there was one.
func (n *Integrations) UninstallFrom(ctx context.Context, u *quire.User, name, id string, kind quire.InstallationTarget, targetID string) (bool, error) {
	in, c, err := n.ContentInstallation(ctx, u, name, id, kind, targetID)
	if quire.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ok, err := n.s.store.DeleteContentInstallation(ctx, c.InstallationID, kind, targetID)
	if ok {
		n.emitContent(ctx, in, c, map[string]any{"type": string(kind) + "_installation_deleted",
			"previous": map[string]any{"configuration": c.Configuration}})
	}
	return ok, err
}

// ContentInstallations lists an integration's space or site
// installations, for those who speak for it.
func (n *Integrations) ContentInstallations(ctx context.Context, u *quire.User, name string, kind quire.InstallationTarget, externalID string, p quire.Page) (*quire.Integration, *quire.List[*quire.ContentInstallation], error) {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return nil, nil, err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		return nil, nil, err
	}
	l, err := n.s.store.ContentInstallations(ctx, in.ID, "", kind, externalID, p)
	return in, l, err
}

// SpaceOf returns a space for an answer that shows it whole.
func (n *Integrations) SpaceOf(ctx context.Context, id string) (*quire.Space, error) {
	return n.s.store.Space(ctx, id)
}

// SiteOf returns a site for an answer that shows it whole.
func (n *Integrations) SiteOf(ctx context.Context, id string) (*quire.Site, error) {
	return n.s.store.Site(ctx, id)
}
