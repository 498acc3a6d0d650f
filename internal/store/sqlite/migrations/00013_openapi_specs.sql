-- OpenAPI specifications of an organization and the versions processing
-- made of them. A version holds every file of the specification (the main
-- file and the files its $refs reach) as a JSON object of path → text,
-- with the hash of the normalized files, so an unchanged source makes no
-- new version.

-- +goose Up
CREATE TABLE openapi_specs (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    slug              TEXT NOT NULL,
    source_url        TEXT NOT NULL DEFAULT '',
    source_text       TEXT NOT NULL DEFAULT '',
    visibility        TEXT NOT NULL DEFAULT 'private',
    state             TEXT NOT NULL DEFAULT 'pending',
    generation        BIGINT NOT NULL DEFAULT 0,
    last_version      TEXT NOT NULL DEFAULT '',
    last_processed_at BIGINT,
    error_code        TEXT NOT NULL DEFAULT '',
    errors            TEXT NOT NULL DEFAULT '[]',
    etag              TEXT NOT NULL DEFAULT '',
    last_modified     TEXT NOT NULL DEFAULT '',
    checked_at        BIGINT NOT NULL DEFAULT 0,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    UNIQUE (org_id, slug)
);
CREATE INDEX openapi_specs_org ON openapi_specs (org_id, created_at, id);
CREATE INDEX openapi_specs_checked ON openapi_specs (checked_at) WHERE source_url <> '';

CREATE TABLE openapi_spec_versions (
    id         TEXT PRIMARY KEY,
    spec_id    TEXT NOT NULL REFERENCES openapi_specs (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    main_file  TEXT NOT NULL,
    files      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX openapi_spec_versions_spec ON openapi_spec_versions (spec_id, created_at, id);

-- +goose Down
DROP TABLE openapi_spec_versions;
DROP TABLE openapi_specs;
