package sqlstore

import (
	"context"
	"time"

	"quire/internal/quire"
)

// sweepPage is how many candidate keys one step of SweepObjects reads.
const sweepPage = 1000

// ContentRoots returns the distinct, non-empty map roots of every stored
// revision.
func (s *Store) ContentRoots(ctx context.Context) (quire.ContentRoots, error) {
	var out quire.ContentRoots
	rows, err := s.query(ctx, `SELECT 'p', pages_root FROM revisions WHERE pages_root <> ''
		UNION SELECT 's', slugs_root FROM revisions WHERE slugs_root <> ''
		UNION SELECT 'f', files_root FROM revisions WHERE files_root <> ''`)
	if err != nil {
		return out, wrap("content roots", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, key string
		if err := rows.Scan(&kind, &key); err != nil {
			return quire.ContentRoots{}, wrap("content roots", err)
		}
		switch kind {
		case "p":
			out.Pages = append(out.Pages, key)
		case "s":
			out.Slugs = append(out.Slugs, key)
		default:
			out.Files = append(out.Files, key)
		}
	}
	return out, wrap("content roots", rows.Err())
}

// SweepObjects walks the objects last written before writtenBefore in key
// order, sweepPage keys at a time, and deletes those live reports false,
// objectBatch keys per statement. Each delete checks the written time
// again, so an object an edit writes once more between the read and the
// delete stays.
func (s *Store) SweepObjects(ctx context.Context, writtenBefore time.Time, live func(key string) bool) (int, error) {
	cutoff := millis(writtenBefore)
	total, after := 0, ""
	for {
		keys, err := s.sweepCandidates(ctx, cutoff, after)
		if err != nil {
			return total, wrap("sweep objects", err)
		}
		if len(keys) == 0 {
			return total, nil
		}
		after = keys[len(keys)-1]
		var dead []string
		for _, k := range keys {
			if !live(k) {
				dead = append(dead, k)
			}
		}
		for len(dead) > 0 {
			n := min(len(dead), objectBatch)
			gone, err := s.deleteObjects(ctx, cutoff, dead[:n])
			if err != nil {
				return total, wrap("sweep objects", err)
			}
			total += gone
			dead = dead[n:]
		}
		if len(keys) < sweepPage {
			return total, nil
		}
	}
}

// sweepCandidates reads the next keys after the given one of the objects
// last written before cutoff.
func (s *Store) sweepCandidates(ctx context.Context, cutoff int64, after string) ([]string, error) {
	rows, err := s.query(ctx, `SELECT key FROM objects WHERE key > ? AND written_at < ?
		ORDER BY key LIMIT ?`, after, cutoff, sweepPage)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// deleteObjects deletes the given objects still last written before
// cutoff. The IN list is padded as in readObjects.
func (s *Store) deleteObjects(ctx context.Context, cutoff int64, keys []string) (int, error) {
	size := inListSize(len(keys))
	args := make([]any, 0, size+1)
	args = append(args, cutoff)
	for _, k := range keys {
		args = append(args, k)
	}
	for len(args) < size+1 {
		args = append(args, keys[len(keys)-1])
	}
	n, err := s.exec(ctx, "DELETE FROM objects WHERE written_at < ? AND key IN ("+placeholders(size)+")", args...)
	return int(n), err
}

// AcquireLease takes the named lease for holder until now+ttl when it is
// free, expired at now or already holder's.
func (s *Store) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	n, err := s.exec(ctx, `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
		WHERE leases.holder = excluded.holder OR leases.expires_at <= ?`,
		name, holder, millis(now.Add(ttl)), millis(now))
	if err != nil {
		return false, wrap("acquire lease", err)
	}
	return n == 1, nil
}

// ReleaseLease deletes the named lease if holder has it.
func (s *Store) ReleaseLease(ctx context.Context, name, holder string) error {
	_, err := s.exec(ctx, "DELETE FROM leases WHERE name = ? AND holder = ?", name, holder)
	return wrap("release lease", err)
}
