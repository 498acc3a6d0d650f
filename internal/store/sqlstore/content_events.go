package sqlstore

import (
	"context"
	"time"

	"quire/internal/quire"
)

// AddContentEvent records a change of a space's content or review; on a
// transaction's Store it commits with the change.
func (s *Store) AddContentEvent(ctx context.Context, ev *quire.ContentEvent) error {
	if ev.CreatedAt.IsZero() {
		ev.CreatedAt = s.clock()
	}
	if ev.Kind == "" {
		ev.Kind = quire.EventRevision
	}
	err := s.writeRow(ctx, `INSERT INTO content_events (space_id, kind, change_request_id, subject, prev_revision,
		next_revision, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, ev.SpaceID, ev.Kind, ev.ChangeRequestID, ev.Subject, ev.Previous,
		ev.Next, millis(ev.CreatedAt)).Scan(&ev.ID)
	return wrap("add content event", err)
}

// ContentEvents returns up to limit events of a space, oldest first.
func (s *Store) ContentEvents(ctx context.Context, spaceID string, limit int) ([]*quire.ContentEvent, error) {
	rows, err := s.query(ctx, `SELECT id, space_id, kind, change_request_id, subject, prev_revision,
		next_revision, created_at FROM content_events WHERE space_id = ? ORDER BY id LIMIT ?`, spaceID, limit)
	if err != nil {
		return nil, wrap("list content events", err)
	}
	defer rows.Close()
	var out []*quire.ContentEvent
	for rows.Next() {
		ev := &quire.ContentEvent{}
		var at int64
		if err := rows.Scan(&ev.ID, &ev.SpaceID, &ev.Kind, &ev.ChangeRequestID, &ev.Subject, &ev.Previous, &ev.Next, &at); err != nil {
			return nil, wrap("list content events", err)
		}
		ev.CreatedAt = fromMillis(at)
		out = append(out, ev)
	}
	return out, wrap("list content events", rows.Err())
}

// DeleteContentEvents removes the space's events up to upTo.
func (s *Store) DeleteContentEvents(ctx context.Context, spaceID string, upTo int64) error {
	_, err := s.exec(ctx, "DELETE FROM content_events WHERE space_id = ? AND id <= ?", spaceID, upTo)
	return wrap("delete content events", err)
}

// PendingContentSpaces lists spaces with an event recorded before a time.
func (s *Store) PendingContentSpaces(ctx context.Context, before time.Time, limit int) ([]string, error) {
	rows, err := s.query(ctx, `SELECT space_id FROM content_events WHERE created_at < ?
		GROUP BY space_id ORDER BY MIN(id) LIMIT ?`, millis(before), limit)
	if err != nil {
		return nil, wrap("list pending content spaces", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("list pending content spaces", err)
		}
		out = append(out, id)
	}
	return out, wrap("list pending content spaces", rows.Err())
}
