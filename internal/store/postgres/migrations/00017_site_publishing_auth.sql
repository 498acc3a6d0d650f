-- The publishing authentication of sites: the private key signing the
-- tokens of a site's visitors (sealed under the server's secret key, never
-- stored in the clear), who signs them in, and where a visitor without a
-- valid token is sent. A site gets its row when it is made; sites older
-- than this table get theirs on first use.

-- +goose Up
CREATE TABLE site_publishing_auth (
    site_id      TEXT COLLATE "C" PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    private_key  TEXT NOT NULL,
    backend      TEXT NOT NULL DEFAULT 'custom',
    fallback_url TEXT NOT NULL DEFAULT '',
    updated_at   BIGINT NOT NULL
);

-- +goose Down
DROP TABLE site_publishing_auth;
