-- Initial schema. Timestamps are unix milliseconds; roles and default
-- levels that mean "none" are NULL; lists and merge rules are JSON text.
-- Ids and positions use the C collation so they sort bytewise, as in SQLite.

-- +goose Up
CREATE TABLE users (
    id           TEXT COLLATE "C" PRIMARY KEY,
    display_name TEXT NOT NULL,
    name_lower   TEXT NOT NULL,
    email        TEXT NOT NULL,
    email_lower  TEXT COLLATE "C" NOT NULL,
    photo_url    TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_email_lower ON users (email_lower);

CREATE TABLE tokens (
    id         TEXT COLLATE "C" PRIMARY KEY,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hash       BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX tokens_user ON tokens (user_id);

CREATE TABLE organizations (
    id             TEXT COLLATE "C" PRIMARY KEY,
    title          TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    email_domains  TEXT NOT NULL DEFAULT '[]',
    hostname       TEXT NOT NULL DEFAULT '',
    type           TEXT NOT NULL DEFAULT '',
    use_case       TEXT NOT NULL DEFAULT '',
    community_type TEXT NOT NULL DEFAULT '',
    default_role   TEXT,
    default_site   TEXT NOT NULL DEFAULT '',
    sso            BOOLEAN NOT NULL DEFAULT FALSE,
    ai             BOOLEAN NOT NULL DEFAULT FALSE,
    invite_links   BOOLEAN NOT NULL DEFAULT FALSE,
    plan           TEXT NOT NULL DEFAULT '',
    logo_url       TEXT NOT NULL DEFAULT '',
    merge_rules    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX organizations_created ON organizations (created_at, id);

-- Lower-cased copies of organizations.email_domains, for lookup.
CREATE TABLE organization_email_domains (
    org_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    domain TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (org_id, domain)
);
CREATE INDEX organization_email_domains_domain ON organization_email_domains (domain);

CREATE TABLE invites (
    id         TEXT COLLATE "C" PRIMARY KEY,
    org_id     TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    role       TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX invites_org ON invites (org_id);

CREATE TABLE members (
    org_id       TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id      TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT,
    disabled     BOOLEAN NOT NULL DEFAULT FALSE,
    sso          BOOLEAN NOT NULL DEFAULT FALSE,
    joined_at    BIGINT NOT NULL,
    last_seen_at BIGINT,
    PRIMARY KEY (org_id, user_id)
);
CREATE INDEX members_joined ON members (org_id, joined_at, user_id);
CREATE INDEX members_seen ON members (org_id, last_seen_at, user_id);
CREATE INDEX members_role ON members (org_id, role);
CREATE INDEX members_user ON members (user_id, joined_at, org_id);

CREATE TABLE teams (
    id          TEXT COLLATE "C" PRIMARY KEY,
    org_id      TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    title       TEXT NOT NULL,
    title_lower TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX teams_org ON teams (org_id, created_at, id);

CREATE TABLE team_members (
    team_id TEXT COLLATE "C" NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role    TEXT NOT NULL CHECK (role IN ('owner', 'member')),
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id, team_id);

CREATE TABLE collections (
    id            TEXT COLLATE "C" PRIMARY KEY,
    org_id        TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id     TEXT COLLATE "C" REFERENCES collections (id) ON DELETE CASCADE,
    title         TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    default_level TEXT,
    position      TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX collections_org ON collections (org_id, position, id);
CREATE INDEX collections_org_parent ON collections (org_id, parent_id, position, id);
CREATE INDEX collections_parent ON collections (parent_id);

CREATE TABLE spaces (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    org_id                TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id             TEXT COLLATE "C" REFERENCES collections (id) ON DELETE SET NULL,
    title                 TEXT NOT NULL,
    emoji                 TEXT NOT NULL DEFAULT '',
    icon_url              TEXT NOT NULL DEFAULT '',
    visibility            TEXT NOT NULL DEFAULT '',
    edit_mode             TEXT NOT NULL DEFAULT '',
    language              TEXT NOT NULL DEFAULT '',
    default_level         TEXT,
    merge_rules           TEXT NOT NULL DEFAULT '{}',
    revision              TEXT NOT NULL DEFAULT '',
    position              TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_at            BIGINT NOT NULL,
    updated_at            BIGINT NOT NULL,
    deleted_at            BIGINT,
    comments              INTEGER NOT NULL DEFAULT 0,
    change_requests       INTEGER NOT NULL DEFAULT 0,
    change_requests_open  INTEGER NOT NULL DEFAULT 0,
    change_requests_draft INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX spaces_org ON spaces (org_id, position, id) WHERE deleted_at IS NULL;
CREATE INDEX spaces_org_parent ON spaces (org_id, parent_id, position, id) WHERE deleted_at IS NULL;
CREATE INDEX spaces_parent ON spaces (parent_id);
CREATE INDEX spaces_deleted ON spaces (deleted_at) WHERE deleted_at IS NOT NULL;

CREATE TABLE revisions (
    id         TEXT COLLATE "C" PRIMARY KEY,
    space_id   TEXT COLLATE "C" NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    parents    TEXT NOT NULL DEFAULT '[]',
    type       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX revisions_space ON revisions (space_id);

-- Grants point at spaces or collections and at users or teams, so they
-- carry no foreign keys: the store deletes them with what they point at.
CREATE TABLE grants (
    target_kind    TEXT NOT NULL CHECK (target_kind IN ('space', 'collection')),
    target_id      TEXT COLLATE "C" NOT NULL,
    principal_kind TEXT NOT NULL CHECK (principal_kind IN ('user', 'team')),
    principal_id   TEXT COLLATE "C" NOT NULL,
    role           TEXT NOT NULL,
    PRIMARY KEY (target_kind, target_id, principal_kind, principal_id)
);
CREATE INDEX grants_principal ON grants (principal_kind, principal_id, target_kind, target_id);

-- +goose Down
DROP TABLE grants;
DROP TABLE revisions;
DROP TABLE spaces;
DROP TABLE collections;
DROP TABLE team_members;
DROP TABLE teams;
DROP TABLE members;
DROP TABLE invites;
DROP TABLE organization_email_domains;
DROP TABLE organizations;
DROP TABLE tokens;
DROP TABLE users;
