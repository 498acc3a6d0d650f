-- space_git_runs is each space's history of finished Git Sync operations,
-- newest by id: the direction, how it ended (success or failure), the
-- commit, the warnings (a JSON array of strings) and the error, when it
-- started and finished, and the user who asked for it. Recording a run
-- keeps only the space's newest 100 (quire.GitSyncRunsKept); the rows go
-- with their space.

-- +goose Up
CREATE TABLE space_git_runs (
    id          BIGSERIAL PRIMARY KEY,
    space_id    TEXT COLLATE "C" NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    direction   TEXT NOT NULL,
    state       TEXT NOT NULL,
    commit_oid  TEXT NOT NULL DEFAULT '',
    warnings    TEXT NOT NULL DEFAULT '[]',
    error       TEXT NOT NULL DEFAULT '',
    started_at  BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    user_id     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX space_git_runs_space ON space_git_runs (space_id, id);

-- +goose Down
DROP TABLE space_git_runs;
