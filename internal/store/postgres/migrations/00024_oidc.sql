-- OpenID Connect sign-in: the sign-ins started and not yet finished, by
-- the SHA-256 of their state (the browser holds the state in a cookie),
-- with the nonce the ID token must carry and the PKCE code verifier. Each
-- is taken once, so a callback replayed is refused on every replica.

-- +goose Up
CREATE TABLE oidc_requests (
    state_hash BYTEA PRIMARY KEY,
    nonce      TEXT NOT NULL,
    verifier   TEXT NOT NULL,
    redirect   TEXT NOT NULL DEFAULT '',
    expires_at BIGINT NOT NULL
);
CREATE INDEX oidc_requests_expiry ON oidc_requests (expires_at);

-- +goose Down
DROP TABLE oidc_requests;
