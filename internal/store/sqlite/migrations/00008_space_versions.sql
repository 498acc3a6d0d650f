-- A count of the writes to each organization's spaces, kept by triggers
-- in the transaction of every insert, update and delete of a space, so
-- that a process can tell cheaply whether a page of the space list it
-- read earlier is still what the database holds. The count is spread
-- over 16 rows per organization, chosen by the last character of the
-- space id, so concurrent writes to different spaces of one organization
-- seldom wait for one another; a reader sums the rows. Rows are never
-- removed, so the sum only grows.

-- +goose Up
CREATE TABLE space_versions (
    org_id TEXT NOT NULL,
    shard  INTEGER NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (org_id, shard)
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER spaces_version_insert AFTER INSERT ON spaces BEGIN
    INSERT INTO space_versions (org_id, shard, n)
        VALUES (NEW.org_id, coalesce(unicode(substr(NEW.id, -1)), 0) % 16, 1)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- A space moved to another organization changes both lists.
-- +goose StatementBegin
CREATE TRIGGER spaces_version_update AFTER UPDATE ON spaces BEGIN
    INSERT INTO space_versions (org_id, shard, n)
        VALUES (OLD.org_id, coalesce(unicode(substr(OLD.id, -1)), 0) % 16, 1)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n + 1;
    INSERT INTO space_versions (org_id, shard, n)
        SELECT NEW.org_id, coalesce(unicode(substr(NEW.id, -1)), 0) % 16, 1
        WHERE NEW.org_id <> OLD.org_id
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER spaces_version_delete AFTER DELETE ON spaces BEGIN
    INSERT INTO space_versions (org_id, shard, n)
        VALUES (OLD.org_id, coalesce(unicode(substr(OLD.id, -1)), 0) % 16, 1)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER spaces_version_delete;
DROP TRIGGER spaces_version_update;
DROP TRIGGER spaces_version_insert;
DROP TABLE space_versions;
