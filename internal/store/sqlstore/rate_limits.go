package sqlstore

import (
	"context"
	"time"
)

// CountRequest counts a request under key in one upsert: a newer window
// than the row's starts the count again at one, the same or an older one
// adds one to the row's.
func (s *Store) CountRequest(ctx context.Context, key string, start, end time.Time) (int, time.Time, error) {
	var hits int
	var until int64
	err := s.writeRow(ctx, `INSERT INTO rate_limits (subject, window_start, window_end, hits) VALUES (?, ?, ?, 1)
		ON CONFLICT (subject) DO UPDATE SET
			hits = CASE WHEN excluded.window_start > rate_limits.window_start THEN 1 ELSE rate_limits.hits + 1 END,
			window_end = CASE WHEN excluded.window_start > rate_limits.window_start THEN excluded.window_end ELSE rate_limits.window_end END,
			window_start = CASE WHEN excluded.window_start > rate_limits.window_start THEN excluded.window_start ELSE rate_limits.window_start END
		RETURNING hits, window_end`, key, millis(start), millis(end)).Scan(&hits, &until)
	if err != nil {
		return 0, time.Time{}, wrap("count request", err)
	}
	return hits, fromMillis(until), nil
}

// PruneRequestCounts deletes the rows of windows that ended by t.
func (s *Store) PruneRequestCounts(ctx context.Context, t time.Time) error {
	_, err := s.exec(ctx, "DELETE FROM rate_limits WHERE window_end <= ?", millis(t))
	return wrap("prune request counts", err)
}
