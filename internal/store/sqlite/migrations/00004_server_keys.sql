-- Secrets the server keeps in the database so that every replica shares
-- them: the key signing download links ('download').

-- +goose Up
CREATE TABLE server_keys (
    name       TEXT PRIMARY KEY,
    secret     BLOB NOT NULL,
    created_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE server_keys;
