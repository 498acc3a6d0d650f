package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// JobCount is how many jobs of one kind are in one state in one queue.
type JobCount struct {
	Queue, Kind, State string
	Jobs               int
}

// JobCounts returns how many jobs the job queue's table holds by queue,
// kind and state, for the jobs not done yet (available, scheduled,
// retryable, running) and those that failed for good (discarded, kept a
// week). It reads the shared database, so every replica answers the same.
func (s *Store) JobCounts(ctx context.Context) ([]JobCount, error) {
	rows, err := s.query(ctx, `SELECT queue, kind, CAST(state AS TEXT), COUNT(*) FROM river_job
		WHERE state IN ('available', 'scheduled', 'retryable', 'running', 'discarded')
		GROUP BY queue, kind, state`)
	if err != nil {
		return nil, wrap("count jobs", err)
	}
	defer rows.Close()
	var out []JobCount
	for rows.Next() {
		var c JobCount
		if err := rows.Scan(&c.Queue, &c.Kind, &c.State, &c.Jobs); err != nil {
			return nil, wrap("count jobs", err)
		}
		out = append(out, c)
	}
	return out, wrap("count jobs", rows.Err())
}

// ContentBacklog is what waits for the content event subscribers: the
// events recorded and not yet handed over (each is deleted once every
// subscriber has taken it).
type ContentBacklog struct {
	// Events is how many events wait.
	Events int
	// Oldest is when the oldest of them was recorded; zero when none
	// waits.
	Oldest time.Time
}

// ContentBacklog returns the content events waiting for the subscribers.
func (s *Store) ContentBacklog(ctx context.Context) (ContentBacklog, error) {
	var b ContentBacklog
	var oldest sql.NullInt64
	if err := s.queryRow(ctx, "SELECT COUNT(*), MIN(created_at) FROM content_events").Scan(&b.Events, &oldest); err != nil {
		return ContentBacklog{}, wrap("content backlog", err)
	}
	if oldest.Valid {
		b.Oldest = fromMillis(oldest.Int64)
	}
	return b, nil
}
