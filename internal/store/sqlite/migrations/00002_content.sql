-- Versioned content: content-addressed objects shared by every space, the
-- map roots of each revision, and change requests numbered per space.

-- +goose Up
-- Immutable objects keyed by the hex SHA-256 of their bytes.
CREATE TABLE objects (
    key  TEXT PRIMARY KEY,
    data BLOB NOT NULL
);

-- Revisions point at the roots of their page, slug and file maps; parents
-- is a JSON array of revision ids.
ALTER TABLE revisions ADD COLUMN pages_root TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN slugs_root TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN files_root TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN merged_from TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN git TEXT;

-- The last change request number given out in the space.
ALTER TABLE spaces ADD COLUMN change_request_seq INTEGER NOT NULL DEFAULT 0;

CREATE TABLE change_requests (
    id                       TEXT PRIMARY KEY,
    space_id                 TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    number                   INTEGER NOT NULL,
    status                   TEXT NOT NULL CHECK (status IN ('draft', 'open', 'archived', 'merged')),
    subject                  TEXT NOT NULL DEFAULT '',
    description              TEXT,
    created_by               TEXT NOT NULL REFERENCES users (id),
    created_at               BIGINT NOT NULL,
    updated_at               BIGINT NOT NULL,
    revision                 TEXT NOT NULL,
    revision_initial         TEXT NOT NULL,
    revision_merged_ancestor TEXT NOT NULL DEFAULT '',
    revision_merged          TEXT NOT NULL DEFAULT '',
    comments                 INTEGER NOT NULL DEFAULT 0,
    UNIQUE (space_id, number)
);
CREATE INDEX change_requests_space ON change_requests (space_id, created_at, id);
CREATE INDEX change_requests_space_status ON change_requests (space_id, status, created_at, id);
CREATE INDEX change_requests_creator ON change_requests (created_by, created_at, id);

CREATE TABLE change_request_contributors (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors (user_id, change_request_id);

-- +goose Down
DROP TABLE change_request_contributors;
DROP TABLE change_requests;
ALTER TABLE spaces DROP COLUMN change_request_seq;
ALTER TABLE revisions DROP COLUMN git;
ALTER TABLE revisions DROP COLUMN created_by;
ALTER TABLE revisions DROP COLUMN merged_from;
ALTER TABLE revisions DROP COLUMN files_root;
ALTER TABLE revisions DROP COLUMN slugs_root;
ALTER TABLE revisions DROP COLUMN pages_root;
DROP TABLE objects;
