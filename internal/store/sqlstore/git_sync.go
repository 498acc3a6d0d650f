package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// gitSyncCols are the columns of space_git_sync in scanGitSync's order.
const gitSyncCols = `space_id, provider, tree_url, url, repo_name, ref, requested_at, applied_at,
	direction, state, error, warnings, commit_oid, started_at, updated_at, completed_at,
	progress_phase, progress_objects, progress_objects_total, progress_bytes, progress_files, progress_files_total`

// optMillis stores a time where the zero time is 0.
func optMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return millis(t)
}

// fromOptMillis reads a time stored by optMillis.
func fromOptMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return fromMillis(ms)
}

// GitSync returns the space's Git Sync record.
func (s *Store) GitSync(ctx context.Context, spaceID string) (*quire.GitSync, error) {
	var (
		g                                    quire.GitSync
		provider, direction, state, warnings string
		requested, applied, started, updated int64
		completed                            sql.NullInt64
	)
	err := s.queryRow(ctx, "SELECT "+gitSyncCols+" FROM space_git_sync WHERE space_id = ?", spaceID).Scan(
		&g.SpaceID, &provider, &g.TreeURL, &g.URL, &g.RepoName, &g.Ref, &requested, &applied,
		&direction, &state, &g.Error, &warnings, &g.Commit, &started, &updated, &completed,
		&g.Progress.Phase, &g.Progress.Objects, &g.Progress.ObjectsTotal, &g.Progress.Bytes, &g.Progress.Files, &g.Progress.FilesTotal)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("git sync")
	}
	if err != nil {
		return nil, wrap("get git sync", err)
	}
	g.Provider, g.Direction, g.State = quire.GitProvider(provider), quire.GitDirection(direction), quire.GitState(state)
	g.Requested, g.Applied = fromOptMillis(requested), fromOptMillis(applied)
	g.StartedAt, g.UpdatedAt = fromOptMillis(started), fromOptMillis(updated)
	g.CompletedAt = fromNullMillis(completed)
	if g.Warnings, err = decodeStrings(warnings); err != nil {
		return nil, wrap("get git sync", err)
	}
	return &g, nil
}

// PutGitSync creates or replaces the space's Git Sync record.
func (s *Store) PutGitSync(ctx context.Context, g *quire.GitSync) error {
	_, err := s.exec(ctx, "INSERT INTO space_git_sync ("+gitSyncCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (space_id) DO UPDATE SET provider = excluded.provider, tree_url = excluded.tree_url,
			url = excluded.url, repo_name = excluded.repo_name, ref = excluded.ref,
			requested_at = excluded.requested_at, applied_at = excluded.applied_at,
			direction = excluded.direction, state = excluded.state, error = excluded.error, warnings = excluded.warnings,
			commit_oid = excluded.commit_oid, started_at = excluded.started_at,
			updated_at = excluded.updated_at, completed_at = excluded.completed_at,
			progress_phase = excluded.progress_phase, progress_objects = excluded.progress_objects,
			progress_objects_total = excluded.progress_objects_total, progress_bytes = excluded.progress_bytes,
			progress_files = excluded.progress_files, progress_files_total = excluded.progress_files_total`,
		g.SpaceID, string(g.Provider), g.TreeURL, g.URL, g.RepoName, g.Ref, optMillis(g.Requested), optMillis(g.Applied),
		string(g.Direction), string(g.State), g.Error, encodeStrings(g.Warnings), g.Commit, optMillis(g.StartedAt), optMillis(g.UpdatedAt),
		nullMillis(g.CompletedAt),
		g.Progress.Phase, g.Progress.Objects, g.Progress.ObjectsTotal, g.Progress.Bytes, g.Progress.Files, g.Progress.FilesTotal)
	if s.dialect.Classify(err) == FailForeignKey {
		return quire.NotFound("space")
	}
	return wrap("put git sync", err)
}

// SetGitProgress records the progress of the running operation applied
// at applied.
func (s *Store) SetGitProgress(ctx context.Context, spaceID string, applied time.Time, p quire.GitProgress, at time.Time) error {
	_, err := s.exec(ctx, `UPDATE space_git_sync SET progress_phase = ?, progress_objects = ?, progress_objects_total = ?,
			progress_bytes = ?, progress_files = ?, progress_files_total = ?, updated_at = ?
		WHERE space_id = ? AND applied_at = ? AND state = ?`,
		p.Phase, p.Objects, p.ObjectsTotal, p.Bytes, p.Files, p.FilesTotal, optMillis(at),
		spaceID, optMillis(applied), string(quire.GitRunning))
	return wrap("set git progress", err)
}

// DeleteGitSync removes the space's Git Sync record.
func (s *Store) DeleteGitSync(ctx context.Context, spaceID string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM space_git_sync WHERE space_id = ?", spaceID)
	return n > 0, wrap("delete git sync", err)
}
