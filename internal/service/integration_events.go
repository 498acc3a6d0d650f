package service

import (
	"context"
	"encoding/json"

	"quire/internal/quire"
)

// IntegrationEventJob delivers one recorded event to its integration.
type IntegrationEventJob struct {
	Integration string `json:"integration"`
	Event       string `json:"event"`
}

// Kind implements quire.JobArgs.
func (IntegrationEventJob) Kind() string { return "integration_event" }

// integrationEventAttempts is how many times a delivery is tried: a
// script that throws or answers a server error, or a tunnel that fails,
// is tried again after the queue's backoff; a script that cannot load or
// went past its CPU time or memory limit is not.
const integrationEventAttempts = 5

// emit records an event of an installation (on a space or site when one
// is named) and queues its delivery, in one transaction: an event row is
// pending only while its delivery is queued. The payload gets its eventId,
// installationId, spaceId and siteId. A failure is logged and goes no
// further: what triggered the event has happened.
func (n *Integrations) emit(ctx context.Context, in *quire.Integration, installationID, spaceID, siteID string, payload map[string]any) {
	ctx = context.WithoutCancel(ctx)
	now := n.s.Now()
	ev := &quire.IntegrationEvent{ID: quire.NewID(), IntegrationID: in.ID, InstallationID: installationID,
		Space: spaceID, Site: siteID, Status: quire.EventPending, CreatedAt: now, UpdatedAt: now}
	payload["eventId"], payload["installationId"] = ev.ID, installationID
	if spaceID != "" {
		payload["spaceId"] = spaceID
	}
	if siteID != "" {
		payload["siteId"] = siteID
	}
	raw, err := json.Marshal(payload)
	if err == nil {
		ev.Payload = raw
		err = n.s.store.WithTx(ctx, func(st quire.Store) error {
			if err := st.AddIntegrationEvent(ctx, ev); err != nil {
				return err
			}
			_, err := n.s.enqueueTx(ctx, st, IntegrationEventJob{Integration: in.ID, Event: ev.ID},
				quire.JobOptions{MaxAttempts: integrationEventAttempts})
			return err
		})
	}
	if err != nil {
		n.log.WarnContext(ctx, "integration event not sent", "integration", in.Name, "type", payload["type"], "error", err)
	}
}

// emitContent records an event of a space or site installation.
func (n *Integrations) emitContent(ctx context.Context, in *quire.Integration, c *quire.ContentInstallation, payload map[string]any) {
	if c.Kind == quire.OnSite {
		n.emit(ctx, in, c.InstallationID, "", c.TargetID, payload)
		return
	}
	n.emit(ctx, in, c.InstallationID, c.TargetID, "", payload)
}

// spaceEvent records an event for every installation covering a space:
// those of its organization on all spaces and those installed on it.
func (n *Integrations) spaceEvent(ctx context.Context, spaceID string, payload func() map[string]any) error {
	sp, err := n.s.store.Space(ctx, spaceID)
	if quire.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	insts, err := n.s.store.OrgInstallations(ctx, sp.OrgID)
	if err != nil {
		return err
	}
	for _, inst := range insts {
		if inst.SpaceSelection != quire.SelectionAll {
			_, err := n.s.store.ContentInstallation(ctx, inst.ID, quire.OnSpace, sp.ID)
			if quire.IsNotFound(err) {
				continue
			}
			if err != nil {
				return err
			}
		}
		in, err := n.s.store.IntegrationByID(ctx, inst.IntegrationID)
		if err != nil {
			if quire.IsNotFound(err) {
				continue
			}
			return err
		}
		n.emit(ctx, in, inst.ID, sp.ID, "", payload())
	}
	return nil
}

// ContentUpdated is the content events subscriber: each move of a
// space's revision is a space_content_updated event for the
// installations covering the space. Handed the same move again, it sends
// it again.
func (n *Integrations) ContentUpdated(ctx context.Context, ev *quire.ContentEvent) error {
	if ev.Kind != "" && ev.Kind != quire.EventRevision {
		return nil
	}
	return n.spaceEvent(ctx, ev.SpaceID, func() map[string]any {
		return map[string]any{"type": "space_content_updated", "revisionId": ev.Next}
	})
}

// SpaceChanged is the space watcher: changes of visibility and Git Sync
// operations are events for the installations covering the space.
func (n *Integrations) SpaceChanged(ctx context.Context, c SpaceNotice) {
	payload := func() map[string]any {
		switch c.Kind {
		case NoticeVisibility:
			return map[string]any{"type": "space_visibility_updated", "visibility": string(c.Visibility),
				"previousVisibility": string(c.PreviousVisibility)}
		case NoticeGitSyncStarted:
			return map[string]any{"type": "space_gitsync_started", "revisionId": c.RevisionID, "commitId": c.CommitID}
		}
		state := "success"
		if c.Failed {
			state = "failure"
		}
		return map[string]any{"type": "space_gitsync_completed", "state": state, "revisionId": c.RevisionID, "commitId": c.CommitID}
	}
	if err := n.spaceEvent(ctx, c.SpaceID, payload); err != nil {
		n.log.WarnContext(ctx, "integration events of a space change not sent", "space", c.SpaceID, "error", err)
	}
}

// Events lists an integration's delivered events, newest first, for
// those who speak for it.
func (n *Integrations) Events(ctx context.Context, u *quire.User, name string, p quire.Page) (*quire.List[*quire.IntegrationEvent], error) {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return nil, err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		return nil, err
	}
	return n.s.store.IntegrationEvents(ctx, in.ID, p)
}

// Event returns an event of an integration with the logs of its last
// delivery.
func (n *Integrations) Event(ctx context.Context, u *quire.User, name, id string) (*quire.IntegrationEvent, error) {
	in, err := n.Get(ctx, u, name)
	if err != nil {
		return nil, err
	}
	if err := n.s.requireIntegrationOwner(ctx, u, in); err != nil {
		return nil, err
	}
	ev, err := n.s.store.IntegrationEvent(ctx, in.ID, id)
	if err == nil && ev.Status == quire.EventPending {
		return nil, quire.NotFound("integration event")
	}
	return ev, err
}
