-- Collecting content objects no revision reaches any more: when an edit
-- last wrote each object, so that a collection spares the objects written
-- while it runs, and leases naming the one replica that runs a job.

-- +goose Up
-- Milliseconds since the epoch; objects stored before this column existed
-- count as written long ago.
ALTER TABLE objects ADD COLUMN written_at BIGINT NOT NULL DEFAULT 0;

-- A lease is held by one holder until it expires or is released.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE leases;
ALTER TABLE objects DROP COLUMN written_at;
