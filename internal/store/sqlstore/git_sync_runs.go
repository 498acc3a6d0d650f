package sqlstore

import (
	"context"

	"quire/internal/quire"
)

// gitRunCols are the columns of space_git_runs in scanGitRun's order.
const gitRunCols = `id, space_id, direction, state, commit_oid, warnings, error, started_at, finished_at, user_id`

// scanGitRun reads a row of gitRunCols.
func scanGitRun(sc scanner) (*quire.GitSyncRun, error) {
	var (
		r                          quire.GitSyncRun
		direction, state, warnings string
		started, finished          int64
	)
	if err := sc.Scan(&r.ID, &r.SpaceID, &direction, &state, &r.Commit, &warnings, &r.Error, &started, &finished, &r.UserID); err != nil {
		return nil, err
	}
	r.Direction, r.State = quire.GitDirection(direction), quire.GitState(state)
	r.StartedAt, r.FinishedAt = fromMillis(started), fromMillis(finished)
	var err error
	if r.Warnings, err = decodeStrings(warnings); err != nil {
		return nil, err
	}
	return &r, nil
}

// AddGitSyncRun records a finished Git Sync operation and drops the
// space's runs older than its newest keep, in one transaction.
func (s *Store) AddGitSyncRun(ctx context.Context, r *quire.GitSyncRun, keep int) error {
	err := s.inTx(ctx, func(tx *Store) error {
		err := tx.writeRow(ctx, `INSERT INTO space_git_runs (space_id, direction, state, commit_oid, warnings, error,
				started_at, finished_at, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			r.SpaceID, string(r.Direction), string(r.State), r.Commit, encodeStrings(r.Warnings), r.Error,
			millis(r.StartedAt), millis(r.FinishedAt), r.UserID).Scan(&r.ID)
		if tx.dialect.Classify(err) == FailForeignKey {
			return quire.NotFound("space")
		}
		if err != nil {
			return err
		}
		// The keep-th newest id and everything older go: the subquery is
		// NULL, and nothing is deleted, while the space has fewer runs.
		_, err = tx.exec(ctx, `DELETE FROM space_git_runs WHERE space_id = ? AND id <= (SELECT id FROM space_git_runs
				WHERE space_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`, r.SpaceID, r.SpaceID, max(keep, 0))
		return err
	})
	return wrap("add git sync run", err)
}

// GitSyncRuns lists the space's finished Git Sync operations, newest
// first, at most limit.
func (s *Store) GitSyncRuns(ctx context.Context, spaceID string, limit int) ([]*quire.GitSyncRun, error) {
	rows, err := s.query(ctx, "SELECT "+gitRunCols+" FROM space_git_runs WHERE space_id = ? ORDER BY id DESC LIMIT ?",
		spaceID, max(limit, 0))
	if err != nil {
		return nil, wrap("git sync runs", err)
	}
	defer rows.Close()
	out := []*quire.GitSyncRun{}
	for rows.Next() {
		r, err := scanGitRun(rows)
		if err != nil {
			return nil, wrap("git sync runs", err)
		}
		out = append(out, r)
	}
	return out, wrap("git sync runs", rows.Err())
}
