-- audit_events is each organization's record of who did what: members
-- added, removed or given another role, visibility and publishing
-- changes, single sign-on settings, API tokens and integrations. actor is
-- the user who acted ('' for the server itself); details is a small JSON
-- object of strings (such as the old and new role). Rows are kept: no
-- pruning yet. Lists read an organization's rows by descending id.

-- +goose Up
CREATE TABLE audit_events (
    id          BIGSERIAL PRIMARY KEY,
    org_id      TEXT NOT NULL,
    actor       TEXT NOT NULL DEFAULT '',
    action      TEXT NOT NULL,
    target_kind TEXT NOT NULL DEFAULT '',
    target_id   TEXT NOT NULL DEFAULT '',
    details     TEXT NOT NULL DEFAULT '{}',
    created_at  BIGINT NOT NULL
);
CREATE INDEX audit_events_org ON audit_events (org_id, id);

-- +goose Down
DROP TABLE audit_events;
