package sqlstore

import (
	"context"
	"slices"
	"strings"
)

// objectBatch is how many objects one statement reads or writes, which
// keeps every statement well under each engine's limit on parameters.
const objectBatch = 500

// Objects returns the stored objects among keys, reading them in batches
// of objectBatch keys with one statement each. Missing keys are absent from
// the map.
func (s *Store) Objects(ctx context.Context, keys []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(keys))
	keys = uniqueSorted(keys)
	for len(keys) > 0 {
		n := min(len(keys), objectBatch)
		if err := s.readObjects(ctx, keys[:n], out); err != nil {
			return nil, wrap("get objects", err)
		}
		keys = keys[n:]
	}
	return out, nil
}

// readObjects reads one batch of keys into out. The IN list is padded to a
// size from a short fixed series by repeating the last key, so that the
// read statements stay few and each is prepared once.
func (s *Store) readObjects(ctx context.Context, keys []string, out map[string][]byte) error {
	size := inListSize(len(keys))
	args := make([]any, 0, size)
	for _, k := range keys {
		args = append(args, k)
	}
	for len(args) < size {
		args = append(args, keys[len(keys)-1])
	}
	rows, err := s.query(ctx, "SELECT key, data FROM objects WHERE key IN ("+placeholders(size)+")", args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			k string
			b []byte
		)
		if err := rows.Scan(&k, &b); err != nil {
			return err
		}
		if b == nil {
			b = []byte{}
		}
		out[k] = b
	}
	return rows.Err()
}

// PutObjects stores objects in batches of objectBatch rows, in one
// transaction (inside a transaction, they are queued with its other
// writes: see txWrites); a key already stored keeps its bytes and only has its
// written time moved to now, which keeps a collection that began before
// from deleting it. Keys are written in order so that concurrent writers
// of the same keys lock them in the same order.
func (s *Store) PutObjects(ctx context.Context, objs map[string][]byte) error {
	if len(objs) == 0 {
		return nil
	}
	if s.txw != nil {
		for k, b := range objs {
			s.txw.objs = append(s.txw.objs, objectWrite{key: k, data: b})
		}
		return nil
	}
	now := millis(s.clock())
	err := s.inTx(ctx, func(tx *Store) error {
		return insertObjects(objs, now, func(q string, args []any) error {
			_, err := tx.exec(ctx, q, args...)
			return err
		})
	})
	return wrap("put objects", err)
}

// insertObjects builds the statements storing objs, objectBatch rows at a
// time in key order, each written at now, and hands each to run: a key
// already stored keeps its bytes and only has its written time moved on.
func insertObjects(objs map[string][]byte, now int64, run func(q string, args []any) error) error {
	keys := make([]string, 0, len(objs))
	for k := range objs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for start := 0; start < len(keys); start += objectBatch {
		batch := keys[start:min(start+objectBatch, len(keys))]
		args := make([]any, 0, 3*len(batch))
		for _, k := range batch {
			b := objs[k]
			if b == nil {
				b = []byte{}
			}
			args = append(args, k, b, now)
		}
		q := "INSERT INTO objects (key, data, written_at) VALUES " + rowPlaceholders(len(batch), 3) +
			" ON CONFLICT (key) DO UPDATE SET written_at = excluded.written_at" +
			" WHERE objects.written_at < excluded.written_at"
		if err := run(q, args); err != nil {
			return err
		}
	}
	return nil
}

// uniqueSorted returns the distinct values of v in order.
func uniqueSorted(v []string) []string {
	out := slices.Clone(v)
	slices.Sort(out)
	return slices.Compact(out)
}

// inListSize rounds the length of an IN list up to a power of two, at most
// objectBatch.
func inListSize(n int) int {
	size := 1
	for size < n {
		size *= 2
	}
	return min(size, objectBatch)
}

// placeholders renders n comma-separated placeholders.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// rowPlaceholders renders n parenthesized rows of cols placeholders each,
// for a multi-row INSERT.
func rowPlaceholders(n, cols int) string {
	row := "(" + placeholders(cols) + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}
