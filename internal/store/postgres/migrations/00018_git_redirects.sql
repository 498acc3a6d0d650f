-- The redirects a space's repository declares in .gitbook.yaml, kept
-- from the last Git import that moved the space: an old address within
-- the space, the file it leads to as the repository names it, and the
-- page that file became ('' when it is no page).

-- +goose Up
CREATE TABLE space_git_redirects (
    space_id TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    path     TEXT NOT NULL,
    target   TEXT NOT NULL,
    page_id  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (space_id, path)
);

-- +goose Down
DROP TABLE space_git_redirects;
