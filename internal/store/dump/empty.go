package dump

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// NotEmptyError is a restore's target that holds data already.
type NotEmptyError struct {
	// What names what holds data.
	What string
}

// Error implements error.
func (e *NotEmptyError) Error() string {
	return "the target is not empty: " + e.What + "; restore into a new database and an empty data directory"
}

// CheckEmpty returns a *NotEmptyError unless db holds no row in any table
// (the migrations' own records aside) and blobs (when not nil) holds no
// blob the archive does not: blobs are named by their bytes, so those a
// failed restore of the same archive left are the archive's own.
func (a *Archive) CheckEmpty(ctx context.Context, eng Engine, db Querier, blobs Blobs) error {
	tables, err := eng.Tables(ctx, db)
	if err != nil {
		return fmt.Errorf("dump: read the target's catalog: %w", err)
	}
	var full []string
	for _, t := range tables {
		if t.Name == "goose_db_version" || t.Name == "river_migration" {
			continue
		}
		var one int
		err := db.QueryRowContext(ctx, "SELECT 1 FROM "+quote(t.Name)+" LIMIT 1").Scan(&one)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return fmt.Errorf("dump: look into table %s: %w", t.Name, err)
		default:
			full = append(full, t.Name)
		}
	}
	if len(full) > 0 {
		return &NotEmptyError{What: "the database holds rows in " + strings.Join(full, ", ")}
	}
	if blobs == nil {
		return nil
	}
	stranger := errors.New("a blob not in the archive")
	var key string
	err = blobs.List(ctx, func(k string, _ int64) error {
		if !a.blobs[k] {
			key = k
			return stranger
		}
		return nil
	})
	if errors.Is(err, stranger) {
		return &NotEmptyError{What: "the blob store holds files not in the archive (" + key + ")"}
	}
	if err != nil {
		return fmt.Errorf("dump: list the blobs: %w", err)
	}
	return nil
}
