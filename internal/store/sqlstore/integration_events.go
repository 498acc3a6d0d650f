package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"quire/internal/quire"
)

// integrationEventCols are the columns of integration_events in
// scanIntegrationEvent's order.
const integrationEventCols = `id, integration_id, installation_id, space_id, site_id, payload, status, logs, attempts,
	created_at, updated_at`

// scanIntegrationEvent reads the columns of integrationEventCols.
func scanIntegrationEvent(sc scanner) (*quire.IntegrationEvent, error) {
	var (
		ev                    quire.IntegrationEvent
		payload, status, logs string
		created, updated      int64
	)
	if err := sc.Scan(&ev.ID, &ev.IntegrationID, &ev.InstallationID, &ev.Space, &ev.Site, &payload, &status, &logs,
		&ev.Attempts, &created, &updated); err != nil {
		return nil, err
	}
	ev.Payload, ev.Status = json.RawMessage(payload), quire.IntegrationEventStatus(status)
	if err := json.Unmarshal([]byte(logs), &ev.Logs); err != nil {
		return nil, fmt.Errorf("decode event logs: %w", err)
	}
	ev.CreatedAt, ev.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &ev, nil
}

// encodeLogs renders script logs as stored JSON text.
func encodeLogs(logs []quire.ScriptLog) string {
	if logs == nil {
		logs = []quire.ScriptLog{}
	}
	b, _ := json.Marshal(logs) // times and strings: cannot fail
	return string(b)
}

// AddIntegrationEvent stores an event.
func (s *Store) AddIntegrationEvent(ctx context.Context, ev *quire.IntegrationEvent) error {
	_, err := s.exec(ctx, "INSERT INTO integration_events ("+integrationEventCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ev.ID, ev.IntegrationID, ev.InstallationID, ev.Space, ev.Site,
		string(ev.Payload), string(ev.Status), encodeLogs(ev.Logs), ev.Attempts, millis(ev.CreatedAt), millis(ev.UpdatedAt))
	if err != nil {
		return s.conflict("add integration event", err, "an event with this id already exists")
	}
	return nil
}

// IntegrationEvent returns an event of an integration.
func (s *Store) IntegrationEvent(ctx context.Context, integrationID, id string) (*quire.IntegrationEvent, error) {
	ev, err := scanIntegrationEvent(s.queryRow(ctx, "SELECT "+integrationEventCols+
		" FROM integration_events WHERE integration_id = ? AND id = ?", integrationID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("integration event")
	}
	return ev, wrap("get integration event", err)
}

// IntegrationEvents lists an integration's delivered events, newest
// first.
func (s *Store) IntegrationEvents(ctx context.Context, integrationID string, p quire.Page) (*quire.List[*quire.IntegrationEvent], error) {
	const tag = "iev"
	var w filter
	w.add("integration_id = ? AND status <> 'pending'", integrationID)
	count, err := s.count(ctx, "SELECT COUNT(*) FROM integration_events"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list integration events", err)
	}
	if err := seekCreatedBy(&w, p.Cursor, tag, "created_at", "id", true); err != nil {
		return nil, err
	}
	q := "SELECT " + integrationEventCols + " FROM integration_events" + w.where() + " ORDER BY created_at DESC, id DESC"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanIntegrationEvent)
	if err != nil {
		return nil, wrap("list integration events", err)
	}
	return newList(items, more, count, func(ev *quire.IntegrationEvent) string {
		return encodeCursor(tag, millis(ev.CreatedAt), ev.ID)
	}), nil
}

// RecordIntegrationEvent writes the outcome of a delivery attempt.
func (s *Store) RecordIntegrationEvent(ctx context.Context, ev *quire.IntegrationEvent) error {
	n, err := s.exec(ctx, "UPDATE integration_events SET status = ?, logs = ?, attempts = ?, updated_at = ? WHERE id = ?",
		string(ev.Status), encodeLogs(ev.Logs), ev.Attempts, millis(ev.UpdatedAt), ev.ID)
	if err == nil && n == 0 {
		return quire.NotFound("integration event")
	}
	return wrap("record integration event", err)
}
