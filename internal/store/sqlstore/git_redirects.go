package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// GitRedirects returns the space's repository redirects, by path.
func (s *Store) GitRedirects(ctx context.Context, spaceID string) ([]quire.GitRedirect, error) {
	rows, err := s.query(ctx, "SELECT path, target, page_id FROM space_git_redirects WHERE space_id = ? ORDER BY path", spaceID)
	if err != nil {
		return nil, wrap("git redirects", err)
	}
	defer rows.Close()
	var out []quire.GitRedirect
	for rows.Next() {
		var r quire.GitRedirect
		if err := rows.Scan(&r.Path, &r.Target, &r.PageID); err != nil {
			return nil, wrap("git redirects", err)
		}
		out = append(out, r)
	}
	return out, wrap("git redirects", rows.Err())
}

// GitRedirect returns the space's repository redirect at path.
func (s *Store) GitRedirect(ctx context.Context, spaceID, path string) (*quire.GitRedirect, error) {
	var r quire.GitRedirect
	err := s.queryRow(ctx, "SELECT path, target, page_id FROM space_git_redirects WHERE space_id = ? AND path = ?", spaceID, path).
		Scan(&r.Path, &r.Target, &r.PageID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("redirect")
	}
	if err != nil {
		return nil, wrap("git redirect", err)
	}
	return &r, nil
}

// ReplaceGitRedirects makes rs the space's repository redirects.
func (s *Store) ReplaceGitRedirects(ctx context.Context, spaceID string, rs []quire.GitRedirect) error {
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, "DELETE FROM space_git_redirects WHERE space_id = ?", spaceID); err != nil {
			return err
		}
		if len(rs) == 0 {
			var one int
			err := tx.queryRow(ctx, "SELECT 1 FROM spaces WHERE id = ?", spaceID).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				return quire.NotFound("space")
			}
			return err
		}
		for start := 0; start < len(rs); start += redirectBatch {
			batch := rs[start:min(start+redirectBatch, len(rs))]
			q := "INSERT INTO space_git_redirects (space_id, path, target, page_id) VALUES "
			args := make([]any, 0, 4*len(batch))
			for i, r := range batch {
				if i > 0 {
					q += ", "
				}
				q += "(?, ?, ?, ?)"
				args = append(args, spaceID, r.Path, r.Target, r.PageID)
			}
			if _, err := tx.exec(ctx, q, args...); err != nil {
				if tx.dialect.Classify(err) == FailForeignKey {
					return quire.NotFound("space")
				}
				return err
			}
		}
		return nil
	})
	return wrap("replace git redirects", err)
}

// redirectBatch is how many redirects one statement inserts.
const redirectBatch = 200
