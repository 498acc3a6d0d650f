package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// GitConfig returns the space's repository settings.
func (s *Store) GitConfig(ctx context.Context, spaceID string) (*quire.GitConfig, error) {
	var c quire.GitConfig
	err := s.queryRow(ctx, "SELECT root, readme, summary, source FROM space_git_config WHERE space_id = ?", spaceID).
		Scan(&c.Root, &c.Readme, &c.Summary, &c.Source)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("git config")
	}
	if err != nil {
		return nil, wrap("git config", err)
	}
	return &c, nil
}

// PutGitConfig records the space's repository settings.
func (s *Store) PutGitConfig(ctx context.Context, spaceID string, c quire.GitConfig) error {
	_, err := s.exec(ctx, `INSERT INTO space_git_config (space_id, root, readme, summary, source) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (space_id) DO UPDATE SET root = excluded.root, readme = excluded.readme,
			summary = excluded.summary, source = excluded.source`,
		spaceID, c.Root, c.Readme, c.Summary, c.Source)
	if err != nil && s.dialect.Classify(err) == FailForeignKey {
		return quire.NotFound("space")
	}
	return wrap("put git config", err)
}
