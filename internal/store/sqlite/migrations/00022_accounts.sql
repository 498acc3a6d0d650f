-- Password accounts: each user's password hash (an encoded argon2id
-- string, kept out of the users table), the one-time links that set up,
-- reset and confirm accounts (stored by the SHA-256 of their secret), and
-- the failed sign-ins counted per account and per client address, so that
-- every replica sharing the database applies the same limit.

-- +goose Up
CREATE TABLE passwords (
    user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE account_links (
    hash       BLOB PRIMARY KEY,
    purpose    TEXT NOT NULL,
    user_id    TEXT REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX account_links_user ON account_links (user_id, purpose);
CREATE INDEX account_links_expiry ON account_links (expires_at);

CREATE TABLE sign_in_failures (
    subject TEXT NOT NULL,
    at      BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_subject ON sign_in_failures (subject, at);

-- +goose Down
DROP TABLE sign_in_failures;
DROP TABLE account_links;
DROP TABLE passwords;
