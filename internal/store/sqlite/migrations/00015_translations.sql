-- Translations of spaces: a source space, the target space holding its
-- translation, and how its runs went. A run translates the source pages
-- changed since source_revision; result_revision is the target revision
-- it made, against which later hand edits of the target are found.

-- +goose Up
CREATE TABLE translations (
    id                 TEXT PRIMARY KEY,
    org_id             TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    source_space       TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    source_language    TEXT NOT NULL,
    language           TEXT NOT NULL,
    instructions       TEXT NOT NULL DEFAULT '',
    target_space       TEXT NOT NULL DEFAULT '',
    state              TEXT NOT NULL DEFAULT '',
    source_revision    TEXT NOT NULL DEFAULT '',
    result_revision    TEXT NOT NULL DEFAULT '',
    error              TEXT NOT NULL DEFAULT '',
    edited_pages       TEXT NOT NULL DEFAULT '[]',
    translated_pages   TEXT NOT NULL DEFAULT '[]',
    runs               BIGINT NOT NULL DEFAULT 0,
    total_words        BIGINT NOT NULL DEFAULT 0,
    total_duration_ms  BIGINT NOT NULL DEFAULT 0,
    latest_duration_ms BIGINT NOT NULL DEFAULT 0,
    latest_pages       BIGINT NOT NULL DEFAULT 0,
    latest_words       BIGINT NOT NULL DEFAULT 0,
    created_by         TEXT NOT NULL DEFAULT '',
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    UNIQUE (source_space, language)
);
CREATE INDEX translations_org ON translations (org_id, created_at, id);

-- +goose Down
DROP TABLE translations;
