-- SAML single sign-on: the identity providers an organization signs its
-- members in through, the sign-ins started and not yet finished, the
-- assertions already used (kept until they expire, so that none is
-- accepted twice on any replica), and the browser sessions sign-ins open,
-- with the organization whose provider opened them.
-- Sessions are stored by the SHA-256 of their secret, never the secret.

-- +goose Up
CREATE TABLE saml_providers (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    label         TEXT NOT NULL,
    entity_id     TEXT NOT NULL DEFAULT '',
    certificate   TEXT NOT NULL DEFAULT '',
    sso_url       TEXT NOT NULL DEFAULT '',
    default_role  TEXT,
    default_team  TEXT REFERENCES teams (id) ON DELETE SET NULL,
    idp_initiated BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    BIGINT NOT NULL
);
CREATE INDEX saml_providers_org ON saml_providers (org_id, created_at, id);
CREATE INDEX saml_providers_team ON saml_providers (default_team);

CREATE TABLE saml_requests (
    relay_hash  BLOB PRIMARY KEY,
    provider_id TEXT NOT NULL REFERENCES saml_providers (id) ON DELETE CASCADE,
    request_id  TEXT NOT NULL,
    redirect    TEXT NOT NULL DEFAULT '',
    expires_at  BIGINT NOT NULL
);
CREATE INDEX saml_requests_expiry ON saml_requests (expires_at);
CREATE INDEX saml_requests_provider ON saml_requests (provider_id);

CREATE TABLE saml_assertions (
    provider_id  TEXT NOT NULL,
    assertion_id TEXT NOT NULL,
    expires_at   BIGINT NOT NULL,
    PRIMARY KEY (provider_id, assertion_id)
);
CREATE INDEX saml_assertions_expiry ON saml_assertions (expires_at);

CREATE TABLE sessions (
    hash        BLOB PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider_id TEXT REFERENCES saml_providers (id) ON DELETE SET NULL,
    org_id      TEXT REFERENCES organizations (id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_provider ON sessions (provider_id);
CREATE INDEX sessions_org ON sessions (org_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- +goose Down
DROP TABLE sessions;
DROP TABLE saml_assertions;
DROP TABLE saml_requests;
DROP TABLE saml_providers;
