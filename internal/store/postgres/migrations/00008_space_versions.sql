-- A count of the writes to each organization's spaces, kept by a trigger
-- in the transaction of every insert, update and delete of a space, so
-- that a replica can tell cheaply whether a page of the space list it
-- read earlier is still what the database holds. The count is spread
-- over 16 rows per organization, chosen by the last character of the
-- space id, so concurrent writes to different spaces of one organization
-- seldom wait for one another's row lock; a reader sums the rows. Rows
-- are never removed, so the sum only grows.

-- +goose Up
CREATE TABLE space_versions (
    org_id TEXT COLLATE "C" NOT NULL,
    shard  SMALLINT NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (org_id, shard)
);

-- +goose StatementBegin
CREATE FUNCTION spaces_version_bump(space_org TEXT, space_id TEXT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO space_versions AS v (org_id, shard, n)
        VALUES (space_org, coalesce(ascii(right(space_id, 1)), 0) % 16, 1)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = v.n + 1;
$$;
-- +goose StatementEnd

-- A space moved to another organization changes both lists.
-- +goose StatementBegin
CREATE FUNCTION spaces_version_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM spaces_version_bump(OLD.org_id, OLD.id);
    END IF;
    IF TG_OP = 'INSERT' THEN
        PERFORM spaces_version_bump(NEW.org_id, NEW.id);
    ELSIF TG_OP = 'UPDATE' AND NEW.org_id <> OLD.org_id THEN
        PERFORM spaces_version_bump(NEW.org_id, NEW.id);
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER spaces_version AFTER INSERT OR UPDATE OR DELETE ON spaces
    FOR EACH ROW EXECUTE FUNCTION spaces_version_trigger();

-- +goose Down
DROP TRIGGER spaces_version ON spaces;
DROP FUNCTION spaces_version_trigger();
DROP FUNCTION spaces_version_bump(TEXT, TEXT);
DROP TABLE space_versions;
