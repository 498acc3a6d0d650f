package sqlstore

import (
	"context"
	"encoding/json"

	"quire/internal/quire"
)

// auditColumns are the columns scanAuditEvent reads.
const auditColumns = `id, org_id, actor, action, target_kind, target_id, details, created_at`

// auditCursorTag names the cursors of audit event lists.
const auditCursorTag = "audit.id.desc"

// scanAuditEvent reads a row of auditColumns.
func scanAuditEvent(sc scanner) (*quire.AuditEvent, error) {
	e := &quire.AuditEvent{}
	var (
		details string
		at      int64
	)
	if err := sc.Scan(&e.ID, &e.OrgID, &e.ActorID, &e.Action, &e.TargetKind, &e.TargetID, &details, &at); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(details), &e.Details); err != nil || e.Details == nil {
		e.Details = map[string]string{}
	}
	e.CreatedAt = fromMillis(at)
	return e, nil
}

// AddAuditEvent records an audit event; its ID is set, and its CreatedAt
// when zero.
func (s *Store) AddAuditEvent(ctx context.Context, e *quire.AuditEvent) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.clock()
	}
	if e.Details == nil {
		e.Details = map[string]string{}
	}
	details, _ := json.Marshal(e.Details) // a map of strings: cannot fail
	err := s.writeRow(ctx, `INSERT INTO audit_events (org_id, actor, action, target_kind, target_id, details, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, e.OrgID, e.ActorID, string(e.Action), e.TargetKind, e.TargetID,
		string(details), millis(e.CreatedAt)).Scan(&e.ID)
	return wrap("add audit event", err)
}

// AuditEvents lists an organization's audit events matching f, newest
// first, by id alone: ids ascend in the order events are recorded. The
// list is not counted.
func (s *Store) AuditEvents(ctx context.Context, orgID string, f quire.AuditFilter, p quire.Page) (*quire.List[*quire.AuditEvent], error) {
	var w filter
	w.add("org_id = ?", orgID)
	if f.Action != "" {
		w.add("action = ?", string(f.Action))
	}
	if f.Actor != "" {
		w.add("actor = ?", f.Actor)
	}
	if !f.Since.IsZero() {
		w.add("created_at >= ?", millis(f.Since))
	}
	if !f.Until.IsZero() {
		w.add("created_at < ?", millis(f.Until))
	}
	if p.Cursor != "" {
		var id int64
		if err := decodeCursor(p.Cursor, auditCursorTag, &id); err != nil {
			return nil, err
		}
		w.seekID("id", true, id)
	}
	q := "SELECT " + auditColumns + " FROM audit_events" + w.where() + " ORDER BY id DESC"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanAuditEvent)
	if err != nil {
		return nil, wrap("list audit events", err)
	}
	return newList(items, more, quire.Uncounted, func(e *quire.AuditEvent) string {
		return encodeCursor(auditCursorTag, e.ID)
	}), nil
}
