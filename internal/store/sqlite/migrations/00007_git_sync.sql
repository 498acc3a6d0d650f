-- What each space records about its Git synchronization: the provider
-- details of its last operation, the event times that keep operations in
-- order, and how the last one went. Repository addresses are stored
-- without credentials.

-- +goose Up
CREATE TABLE space_git_sync (
    space_id     TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    provider     TEXT NOT NULL DEFAULT '',
    tree_url     TEXT NOT NULL DEFAULT '',
    url          TEXT NOT NULL DEFAULT '',
    repo_name    TEXT NOT NULL DEFAULT '',
    ref          TEXT NOT NULL DEFAULT '',
    requested_at BIGINT NOT NULL DEFAULT 0,
    applied_at   BIGINT NOT NULL DEFAULT 0,
    direction    TEXT NOT NULL DEFAULT '',
    state        TEXT NOT NULL DEFAULT '',
    error        TEXT NOT NULL DEFAULT '',
    warnings     TEXT NOT NULL DEFAULT '[]',
    commit_oid   TEXT NOT NULL DEFAULT '',
    started_at   BIGINT NOT NULL DEFAULT 0,
    updated_at   BIGINT NOT NULL DEFAULT 0,
    completed_at BIGINT
);

-- +goose Down
DROP TABLE space_git_sync;
