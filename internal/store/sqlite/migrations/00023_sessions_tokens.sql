-- Browser sessions get a public id (to list and end them without the
-- secret), the way they were opened, the device and address they were
-- opened from and when they were last used, which ends them after a time
-- without use. API tokens get a name and the time they were last used.
-- Every session open so far was opened by a SAML sign-in; tokens made so
-- far are named "API token".

-- +goose Up
ALTER TABLE sessions ADD COLUMN id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'saml';
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET id = lower(hex(randomblob(10))), last_seen_at = created_at;
CREATE UNIQUE INDEX sessions_id ON sessions (id);
CREATE INDEX sessions_last_seen ON sessions (last_seen_at);

ALTER TABLE tokens ADD COLUMN name TEXT NOT NULL DEFAULT 'API token';
ALTER TABLE tokens ADD COLUMN last_used_at BIGINT;
UPDATE tokens SET name = 'API token' WHERE name = '';

-- +goose Down
DROP INDEX sessions_last_seen;
DROP INDEX sessions_id;
ALTER TABLE sessions DROP COLUMN last_seen_at;
ALTER TABLE sessions DROP COLUMN address;
ALTER TABLE sessions DROP COLUMN user_agent;
ALTER TABLE sessions DROP COLUMN method;
ALTER TABLE sessions DROP COLUMN id;
ALTER TABLE tokens DROP COLUMN last_used_at;
ALTER TABLE tokens DROP COLUMN name;
