-- Integrations published by organizations, their installations (in an
-- organization, and on its spaces and sites) and the events sent to them.
-- An integration acts as a user of its own (user_id) with its tokens.
-- The manifest is the published declaration as JSON; the columns beside
-- it (categories, scopes, block domains as ",a,b," lists) serve the
-- listing filters on both engines.

-- +goose Up
CREATE TABLE integrations (
    id                  TEXT PRIMARY KEY,
    name                TEXT NOT NULL UNIQUE,
    org_id              TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id             TEXT NOT NULL REFERENCES users (id),
    version             BIGINT NOT NULL,
    title_lower         TEXT NOT NULL,
    visibility          TEXT NOT NULL,
    target              TEXT NOT NULL,
    categories          TEXT NOT NULL,
    scopes              TEXT NOT NULL,
    block_domains       TEXT NOT NULL,
    has_blocks          BOOLEAN NOT NULL,
    has_content_sources BOOLEAN NOT NULL,
    manifest            TEXT NOT NULL,
    script              TEXT NOT NULL,
    icon                TEXT NOT NULL DEFAULT '',
    signing_secret      TEXT NOT NULL,
    dev_tunnel          TEXT NOT NULL DEFAULT '',
    dev_all             BOOLEAN NOT NULL DEFAULT FALSE,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
);
CREATE INDEX integrations_org ON integrations (org_id);

CREATE TABLE integration_installations (
    id              TEXT PRIMARY KEY,
    integration_id  TEXT NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
    org_id          TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    status          TEXT NOT NULL,
    space_selection TEXT NOT NULL,
    site_selection  TEXT NOT NULL,
    configuration   TEXT NOT NULL DEFAULT '{}',
    external_ids    TEXT NOT NULL DEFAULT '[]',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    UNIQUE (integration_id, org_id)
);
CREATE INDEX integration_installations_org ON integration_installations (org_id);
CREATE INDEX integration_installations_list ON integration_installations (integration_id, created_at, id);

-- A space or site installation; kind is space or site and target_id the
-- space's or site's id.
CREATE TABLE integration_content_installations (
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    integration_id  TEXT NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    status          TEXT NOT NULL,
    configuration   TEXT NOT NULL DEFAULT '{}',
    external_ids    TEXT NOT NULL DEFAULT '[]',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (installation_id, kind, target_id)
);
CREATE INDEX integration_content_installations_list ON integration_content_installations (integration_id, kind, created_at, target_id);
CREATE INDEX integration_content_installations_target ON integration_content_installations (kind, target_id);

-- Events sent to an integration; status is pending until the first
-- delivery attempt, then success or failed, with the logs of the last.
CREATE TABLE integration_events (
    id              TEXT PRIMARY KEY,
    integration_id  TEXT NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
    installation_id TEXT NOT NULL DEFAULT '',
    space_id        TEXT NOT NULL DEFAULT '',
    site_id         TEXT NOT NULL DEFAULT '',
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL,
    logs            TEXT NOT NULL DEFAULT '[]',
    attempts        INTEGER NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX integration_events_list ON integration_events (integration_id, created_at, id);

-- +goose Down
DROP TABLE integration_events;
DROP TABLE integration_content_installations;
DROP TABLE integration_installations;
DROP TABLE integrations;
