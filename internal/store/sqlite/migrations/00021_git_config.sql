-- The settings of a space's repository (.gitbook.yaml: the content root
-- and the names of the landing page and table of contents), kept from the
-- last Git import that moved the space, with the file as read, so that
-- an export writes them back.

-- +goose Up
CREATE TABLE space_git_config (
    space_id TEXT NOT NULL PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    root     TEXT NOT NULL DEFAULT '',
    readme   TEXT NOT NULL DEFAULT '',
    summary  TEXT NOT NULL DEFAULT '',
    source   TEXT NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE space_git_config;
