-- A count of the writes to what a published site shows its readers, kept
-- by triggers in the transaction of every write to it, so that any
-- replica can tell with one indexed read whether the site it holds in
-- memory is still what the database holds: the site's own row (settings,
-- publishing, visibility, customization, visitor schema), its section
-- groups, sections, site spaces and share links, the title and current
-- revision of the spaces it publishes, and the latest versions of its
-- organization's OpenAPI specifications, which its pages show. The count
-- only grows.

-- +goose Up
ALTER TABLE sites ADD COLUMN version BIGINT NOT NULL DEFAULT 1;

-- Any update of the site's row that does not itself move the count.
-- +goose StatementBegin
CREATE FUNCTION sites_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.version := OLD.version + 1;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER sites_version BEFORE UPDATE ON sites
    FOR EACH ROW WHEN (NEW.version = OLD.version) EXECUTE FUNCTION sites_version_row();

-- A write to a row of a table with a site_id column moves its site (both
-- sites when the row moves between them).
-- +goose StatementBegin
CREATE FUNCTION sites_version_child() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE sites SET version = version + 1 WHERE id = OLD.site_id;
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.site_id <> OLD.site_id) THEN
        UPDATE sites SET version = version + 1 WHERE id = NEW.site_id;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER site_section_groups_version AFTER INSERT OR UPDATE OR DELETE ON site_section_groups
    FOR EACH ROW EXECUTE FUNCTION sites_version_child();
CREATE TRIGGER site_sections_version AFTER INSERT OR UPDATE OR DELETE ON site_sections
    FOR EACH ROW EXECUTE FUNCTION sites_version_child();
CREATE TRIGGER site_spaces_version AFTER INSERT OR UPDATE OR DELETE ON site_spaces
    FOR EACH ROW EXECUTE FUNCTION sites_version_child();
CREATE TRIGGER site_share_links_version AFTER INSERT OR UPDATE OR DELETE ON site_share_links
    FOR EACH ROW EXECUTE FUNCTION sites_version_child();

-- Only what readers see of a space moves its sites: not its counters.
-- +goose StatementBegin
CREATE FUNCTION sites_version_space() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE sites SET version = version + 1 WHERE id IN (SELECT site_id FROM site_spaces WHERE space_id = NEW.id);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER spaces_site_version AFTER UPDATE ON spaces
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.emoji IS DISTINCT FROM NEW.emoji
        OR OLD.icon_url IS DISTINCT FROM NEW.icon_url OR OLD.language IS DISTINCT FROM NEW.language
        OR OLD.revision IS DISTINCT FROM NEW.revision OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
    EXECUTE FUNCTION sites_version_space();

-- A specification's new version moves every site of its organization;
-- checks that find nothing new do not.
-- +goose StatementBegin
CREATE FUNCTION sites_version_openapi() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE sites SET version = version + 1 WHERE org_id = OLD.org_id;
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.org_id <> OLD.org_id) THEN
        UPDATE sites SET version = version + 1 WHERE org_id = NEW.org_id;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER openapi_specs_site_version_write AFTER INSERT OR DELETE ON openapi_specs
    FOR EACH ROW EXECUTE FUNCTION sites_version_openapi();
CREATE TRIGGER openapi_specs_site_version_update AFTER UPDATE ON openapi_specs
    FOR EACH ROW WHEN (OLD.last_version IS DISTINCT FROM NEW.last_version OR OLD.slug IS DISTINCT FROM NEW.slug)
    EXECUTE FUNCTION sites_version_openapi();

-- +goose Down
DROP TRIGGER openapi_specs_site_version_update ON openapi_specs;
DROP TRIGGER openapi_specs_site_version_write ON openapi_specs;
DROP FUNCTION sites_version_openapi();
DROP TRIGGER spaces_site_version ON spaces;
DROP FUNCTION sites_version_space();
DROP TRIGGER site_share_links_version ON site_share_links;
DROP TRIGGER site_spaces_version ON site_spaces;
DROP TRIGGER site_sections_version ON site_sections;
DROP TRIGGER site_section_groups_version ON site_section_groups;
DROP FUNCTION sites_version_child();
DROP TRIGGER sites_version ON sites;
DROP FUNCTION sites_version_row();
ALTER TABLE sites DROP COLUMN version;
