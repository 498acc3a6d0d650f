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
CREATE TRIGGER sites_version_update AFTER UPDATE ON sites WHEN NEW.version = OLD.version BEGIN
    UPDATE sites SET version = OLD.version + 1 WHERE id = NEW.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER site_section_groups_version_insert AFTER INSERT ON site_section_groups BEGIN
    UPDATE sites SET version = version + 1 WHERE id = NEW.site_id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_section_groups_version_update AFTER UPDATE ON site_section_groups BEGIN
    UPDATE sites SET version = version + 1 WHERE id IN (OLD.site_id, NEW.site_id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_section_groups_version_delete AFTER DELETE ON site_section_groups BEGIN
    UPDATE sites SET version = version + 1 WHERE id = OLD.site_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER site_sections_version_insert AFTER INSERT ON site_sections BEGIN
    UPDATE sites SET version = version + 1 WHERE id = NEW.site_id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_sections_version_update AFTER UPDATE ON site_sections BEGIN
    UPDATE sites SET version = version + 1 WHERE id IN (OLD.site_id, NEW.site_id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_sections_version_delete AFTER DELETE ON site_sections BEGIN
    UPDATE sites SET version = version + 1 WHERE id = OLD.site_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER site_spaces_version_insert AFTER INSERT ON site_spaces BEGIN
    UPDATE sites SET version = version + 1 WHERE id = NEW.site_id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_spaces_version_update AFTER UPDATE ON site_spaces BEGIN
    UPDATE sites SET version = version + 1 WHERE id IN (OLD.site_id, NEW.site_id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_spaces_version_delete AFTER DELETE ON site_spaces BEGIN
    UPDATE sites SET version = version + 1 WHERE id = OLD.site_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER site_share_links_version_insert AFTER INSERT ON site_share_links BEGIN
    UPDATE sites SET version = version + 1 WHERE id = NEW.site_id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_share_links_version_update AFTER UPDATE ON site_share_links BEGIN
    UPDATE sites SET version = version + 1 WHERE id IN (OLD.site_id, NEW.site_id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER site_share_links_version_delete AFTER DELETE ON site_share_links BEGIN
    UPDATE sites SET version = version + 1 WHERE id = OLD.site_id;
END;
-- +goose StatementEnd

-- Only what readers see of a space moves its sites: not its counters.
-- +goose StatementBegin
CREATE TRIGGER spaces_site_version AFTER UPDATE ON spaces
    WHEN OLD.title IS NOT NEW.title OR OLD.emoji IS NOT NEW.emoji OR OLD.icon_url IS NOT NEW.icon_url
        OR OLD.language IS NOT NEW.language OR OLD.revision IS NOT NEW.revision OR OLD.deleted_at IS NOT NEW.deleted_at BEGIN
    UPDATE sites SET version = version + 1 WHERE id IN (SELECT site_id FROM site_spaces WHERE space_id = NEW.id);
END;
-- +goose StatementEnd

-- A specification's new version moves every site of its organization;
-- checks that find nothing new do not.
-- +goose StatementBegin
CREATE TRIGGER openapi_specs_site_version_insert AFTER INSERT ON openapi_specs BEGIN
    UPDATE sites SET version = version + 1 WHERE org_id = NEW.org_id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER openapi_specs_site_version_update AFTER UPDATE ON openapi_specs
    WHEN OLD.last_version IS NOT NEW.last_version OR OLD.slug IS NOT NEW.slug BEGIN
    UPDATE sites SET version = version + 1 WHERE org_id IN (OLD.org_id, NEW.org_id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER openapi_specs_site_version_delete AFTER DELETE ON openapi_specs BEGIN
    UPDATE sites SET version = version + 1 WHERE org_id = OLD.org_id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER openapi_specs_site_version_delete;
DROP TRIGGER openapi_specs_site_version_update;
DROP TRIGGER openapi_specs_site_version_insert;
DROP TRIGGER spaces_site_version;
DROP TRIGGER site_share_links_version_delete;
DROP TRIGGER site_share_links_version_update;
DROP TRIGGER site_share_links_version_insert;
DROP TRIGGER site_spaces_version_delete;
DROP TRIGGER site_spaces_version_update;
DROP TRIGGER site_spaces_version_insert;
DROP TRIGGER site_sections_version_delete;
DROP TRIGGER site_sections_version_update;
DROP TRIGGER site_sections_version_insert;
DROP TRIGGER site_section_groups_version_delete;
DROP TRIGGER site_section_groups_version_update;
DROP TRIGGER site_section_groups_version_insert;
DROP TRIGGER sites_version_update;
ALTER TABLE sites DROP COLUMN version;
