-- Sites: how spaces reach readers. A site holds site spaces at its root or
-- sections (each with its own site spaces), and sections may sit in
-- section groups. Items are ordered by fractional position keys among
-- their siblings. Default choices are kept as ids; one that is gone falls
-- back to the first item in order, so a default always exists.

-- Ids and positions use the C collation so they sort bytewise, as in SQLite.

-- +goose Up
CREATE TABLE sites (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    org_id                TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    type                  TEXT NOT NULL,
    title                 TEXT NOT NULL,
    basename              TEXT COLLATE "C",
    visibility            TEXT NOT NULL,
    published             BOOLEAN NOT NULL DEFAULT FALSE,
    adaptive_content      BOOLEAN NOT NULL DEFAULT FALSE,
    agents_context        TEXT NOT NULL,
    proxy                 TEXT NOT NULL DEFAULT '',
    default_section_id    TEXT COLLATE "C",
    default_site_space_id TEXT COLLATE "C",
    adaptive_schema       TEXT,
    adaptive_updated_at   BIGINT,
    customization         TEXT,
    created_at            BIGINT NOT NULL,
    updated_at            BIGINT NOT NULL
);
CREATE INDEX sites_org ON sites (org_id, created_at, id);
-- The published address of a site is /sites/<basename>/ on the server.
CREATE UNIQUE INDEX sites_basename ON sites (basename);

CREATE TABLE site_section_groups (
    id         TEXT COLLATE "C" PRIMARY KEY,
    site_id    TEXT COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    parent_id  TEXT COLLATE "C" REFERENCES site_section_groups (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    icon       TEXT NOT NULL DEFAULT '',
    position   TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_section_groups_place ON site_section_groups (site_id, parent_id, position);

CREATE TABLE site_sections (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    site_id               TEXT COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    group_id              TEXT COLLATE "C" REFERENCES site_section_groups (id) ON DELETE SET NULL,
    title                 TEXT NOT NULL,
    path                  TEXT COLLATE "C" NOT NULL,
    description           TEXT NOT NULL DEFAULT '',
    icon                  TEXT NOT NULL DEFAULT '',
    condition             TEXT NOT NULL DEFAULT '',
    default_site_space_id TEXT COLLATE "C",
    position              TEXT COLLATE "C" NOT NULL,
    created_at            BIGINT NOT NULL
);
CREATE INDEX site_sections_place ON site_sections (site_id, group_id, position);
CREATE UNIQUE INDEX site_sections_path ON site_sections (site_id, path);

CREATE TABLE site_spaces (
    id         TEXT COLLATE "C" PRIMARY KEY,
    site_id    TEXT COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    section_id TEXT COLLATE "C" REFERENCES site_sections (id) ON DELETE CASCADE,
    space_id   TEXT COLLATE "C" NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    path       TEXT COLLATE "C" NOT NULL,
    condition  TEXT NOT NULL DEFAULT '',
    position   TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_spaces_place ON site_spaces (site_id, section_id, position);
CREATE UNIQUE INDEX site_spaces_path ON site_spaces (site_id, COALESCE(section_id, ''), path);
CREATE INDEX site_spaces_space ON site_spaces (space_id);

CREATE TABLE site_share_links (
    id         TEXT COLLATE "C" PRIMARY KEY,
    site_id    TEXT COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name       TEXT NOT NULL DEFAULT '',
    share_key  TEXT COLLATE "C" NOT NULL,
    active     BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_share_links_site ON site_share_links (site_id, created_at, id);
CREATE UNIQUE INDEX site_share_links_key ON site_share_links (site_id, share_key);

-- +goose Down
DROP TABLE site_share_links;
DROP TABLE site_spaces;
DROP TABLE site_sections;
DROP TABLE site_section_groups;
DROP TABLE sites;
