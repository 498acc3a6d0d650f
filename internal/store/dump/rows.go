package dump

import (
	"context"
	"fmt"
	"strings"
)

// quote quotes an identifier for both engines.
func quote(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// columnList is the quoted, comma-separated names of cols.
func columnList(cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quote(c.Name)
	}
	return strings.Join(names, ", ")
}

// scanTable calls fn with the neutral values of each row of the columns
// cols of table t, read through q in the order of its primary key. The
// slice passed to fn is fn's to keep.
func scanTable(ctx context.Context, q Querier, t Table, cols []Column, fn func(row []any) error) error {
	query := "SELECT " + columnList(cols) + " FROM " + quote(t.Name)
	if len(t.Key) > 0 {
		keys := make([]string, len(t.Key))
		for i, k := range t.Key {
			keys[i] = quote(k)
		}
		query += " ORDER BY " + strings.Join(keys, ", ")
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("read table %s: %w", t.Name, err)
	}
	defer rows.Close()
	raw := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("read table %s: %w", t.Name, err)
		}
		row := make([]any, len(cols))
		for i, c := range cols {
			v, err := neutral(c.Kind, raw[i])
			if err != nil {
				return fmt.Errorf("table %s, column %s: %w", t.Name, c.Name, err)
			}
			row[i] = v
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read table %s: %w", t.Name, err)
	}
	return nil
}
