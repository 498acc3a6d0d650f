package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"quire/internal/quire"
)

// notificationColumns are the columns scanNotification reads.
const notificationColumns = `id, recipient, kind, space_id, change_request_id, comment_id, actor, created_at, read_at`

// scanNotification reads a row of notificationColumns.
func scanNotification(sc scanner) (*quire.Notification, error) {
	n := &quire.Notification{}
	var at int64
	var read sql.NullInt64
	if err := sc.Scan(&n.ID, &n.Recipient, &n.Kind, &n.SpaceID, &n.ChangeRequestID, &n.CommentID, &n.Actor, &at, &read); err != nil {
		return nil, err
	}
	n.CreatedAt = fromMillis(at)
	if read.Valid {
		n.ReadAt = fromMillis(read.Int64)
	}
	return n, nil
}

// AddNotifications records notifications; their IDs are set.
func (s *Store) AddNotifications(ctx context.Context, ns []*quire.Notification) error {
	for _, n := range ns {
		if n.CreatedAt.IsZero() {
			n.CreatedAt = s.clock()
		}
		err := s.writeRow(ctx, `INSERT INTO notifications (recipient, kind, space_id, change_request_id, comment_id,
			actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, n.Recipient, n.Kind, n.SpaceID,
			n.ChangeRequestID, n.CommentID, n.Actor, millis(n.CreatedAt)).Scan(&n.ID)
		if err != nil {
			return wrap("add notification", err)
		}
	}
	return nil
}

// Notifications lists a recipient's notifications, newest first.
func (s *Store) Notifications(ctx context.Context, recipient string, before int64, limit int) ([]*quire.Notification, error) {
	q := `SELECT ` + notificationColumns + ` FROM notifications WHERE recipient = ?`
	args := []any{recipient}
	if before > 0 {
		q += ` AND id < ?`
		args = append(args, before)
	}
	out, err := fetchAll(ctx, s, q+` ORDER BY id DESC LIMIT ?`, append(args, limit), scanNotification)
	return out, wrap("list notifications", err)
}

// UnreadNotifications counts a recipient's unread notifications.
func (s *Store) UnreadNotifications(ctx context.Context, recipient string) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM notifications WHERE recipient = ? AND read_at IS NULL`, recipient).Scan(&n)
	return n, wrap("count unread notifications", err)
}

// MarkNotificationsRead marks one or all of a recipient's notifications
// read.
func (s *Store) MarkNotificationsRead(ctx context.Context, recipient string, id int64, at time.Time) (int64, error) {
	q := `UPDATE notifications SET read_at = ? WHERE recipient = ? AND read_at IS NULL`
	args := []any{millis(at), recipient}
	if id > 0 {
		q += ` AND id = ?`
		args = append(args, id)
	}
	n, err := s.exec(ctx, q, args...)
	return n, wrap("mark notifications read", err)
}

// NotifiedSince reports whether a recipient was told of kind about a
// change request at or after a time: in their inbox, or as MarkNotified
// recorded.
func (s *Store) NotifiedSince(ctx context.Context, recipient string, kind quire.NotificationKind, changeRequestID string, since time.Time) (bool, error) {
	rows, err := s.query(ctx, `SELECT 1 FROM notified WHERE recipient = ? AND kind = ? AND change_request_id = ? AND at >= ?
		UNION ALL
		SELECT 1 FROM notifications WHERE recipient = ? AND kind = ? AND change_request_id = ? AND created_at >= ?
		LIMIT 1`, recipient, kind, changeRequestID, millis(since), recipient, kind, changeRequestID, millis(since))
	if err != nil {
		return false, wrap("find notification", err)
	}
	defer rows.Close()
	found := rows.Next()
	return found, wrap("find notification", rows.Err())
}

// MarkNotified records when a recipient was last told of kind about a
// change request.
func (s *Store) MarkNotified(ctx context.Context, recipient string, kind quire.NotificationKind, changeRequestID string, at time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO notified (recipient, kind, change_request_id, at) VALUES (?, ?, ?, ?)
		ON CONFLICT (recipient, kind, change_request_id) DO UPDATE SET at = excluded.at`,
		recipient, kind, changeRequestID, millis(at))
	return wrap("mark notified", err)
}

// NotificationsAfter lists notifications above an id, oldest first.
func (s *Store) NotificationsAfter(ctx context.Context, after int64, limit int) ([]*quire.Notification, error) {
	out, err := fetchAll(ctx, s, `SELECT `+notificationColumns+` FROM notifications WHERE id > ? ORDER BY id LIMIT ?`,
		[]any{after, limit}, scanNotification)
	return out, wrap("list notifications", err)
}

// NotificationPreferences returns the preferences a person changed.
func (s *Store) NotificationPreferences(ctx context.Context, userID string) ([]quire.NotificationPreference, error) {
	out, err := fetchAll(ctx, s, `SELECT kind, inbox, email FROM notification_preferences WHERE user_id = ? ORDER BY kind`,
		[]any{userID}, func(sc scanner) (quire.NotificationPreference, error) {
			var p quire.NotificationPreference
			err := sc.Scan(&p.Kind, &p.Inbox, &p.Email)
			return p, err
		})
	return out, wrap("list notification preferences", err)
}

// SetNotificationPreference stores a person's preference of a kind.
func (s *Store) SetNotificationPreference(ctx context.Context, userID string, p quire.NotificationPreference) error {
	_, err := s.exec(ctx, `INSERT INTO notification_preferences (user_id, kind, inbox, email) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, kind) DO UPDATE SET inbox = excluded.inbox, email = excluded.email`,
		userID, p.Kind, p.Inbox, p.Email)
	return wrap("set notification preference", err)
}

// AddActivity records an activity of a space.
func (s *Store) AddActivity(ctx context.Context, a *quire.Activity) error {
	if a.CreatedAt.IsZero() {
		a.CreatedAt = s.clock()
	}
	err := s.writeRow(ctx, `INSERT INTO space_activity (space_id, kind, actor, change_request_id, comment_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, a.SpaceID, a.Kind, a.Actor, a.ChangeRequestID, a.CommentID,
		millis(a.CreatedAt)).Scan(&a.ID)
	return wrap("add activity", err)
}

// ActivityAfter lists activities above an id, oldest first.
func (s *Store) ActivityAfter(ctx context.Context, after int64, limit int) ([]*quire.Activity, error) {
	out, err := fetchAll(ctx, s, `SELECT id, space_id, kind, actor, change_request_id, comment_id, created_at
		FROM space_activity WHERE id > ? ORDER BY id LIMIT ?`, []any{after, limit}, func(sc scanner) (*quire.Activity, error) {
		a := &quire.Activity{}
		var at int64
		if err := sc.Scan(&a.ID, &a.SpaceID, &a.Kind, &a.Actor, &a.ChangeRequestID, &a.CommentID, &at); err != nil {
			return nil, err
		}
		a.CreatedAt = fromMillis(at)
		return a, nil
	})
	return out, wrap("list activity", err)
}

// LatestIDs returns the highest activity and notification ids.
func (s *Store) LatestIDs(ctx context.Context) (activity, notification int64, err error) {
	err = s.queryRow(ctx, `SELECT COALESCE((SELECT MAX(id) FROM space_activity), 0),
		COALESCE((SELECT MAX(id) FROM notifications), 0)`).Scan(&activity, &notification)
	return activity, notification, wrap("latest ids", err)
}

// PruneActivity removes activities recorded before a time.
func (s *Store) PruneActivity(ctx context.Context, before time.Time) error {
	_, err := s.exec(ctx, `DELETE FROM space_activity WHERE created_at < ?`, millis(before))
	return wrap("prune activity", err)
}
