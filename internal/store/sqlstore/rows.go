package sqlstore

import "context"

// scanner is what *sql.Row and *sql.Rows have in common.
type scanner interface {
	Scan(dest ...any) error
}

// rowWithExtra scans a row's leading columns with an entity's scan function
// and the columns that follow them into extra.
type rowWithExtra struct {
	sc    scanner
	extra []any
}

// Scan implements scanner.
func (r rowWithExtra) Scan(dest ...any) error {
	return r.sc.Scan(append(dest, r.extra...)...)
}

// scanString reads a row of one text column.
func scanString(sc scanner) (string, error) {
	var v string
	if err := sc.Scan(&v); err != nil {
		return "", err
	}
	return v, nil
}

// fetchPage runs a page query, which must end with its ORDER BY clause,
// reading up to limit rows plus one to learn whether another page follows.
func fetchPage[T any](ctx context.Context, s *Store, q string, args []any, limit int, scan func(scanner) (T, error)) (items []T, more bool, err error) {
	rows, err := s.query(ctx, q+" LIMIT ?", append(args[:len(args):len(args)], limit+1)...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	items = make([]T, 0, min(limit, 64))
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, false, err
		}
		items = append(items, v)
	}
	s.stats.rows.Add(int64(len(items)))
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if len(items) > limit {
		return items[:limit], true, nil
	}
	return items, false, nil
}

// fetchAll runs a query and scans every row.
func fetchAll[T any](ctx context.Context, s *Store, q string, args []any, scan func(scanner) (T, error)) ([]T, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	s.stats.rows.Add(int64(len(items)))
	return items, rows.Err()
}
