-- Notifications, each person's choices of how to receive them, and the
-- activity of spaces that open pages follow live.
--
-- notifications holds one row per person told of something: what kind of
-- thing, where (the space, and the change request and comment when there
-- is one), who did it, and when the person read it (NULL while unread).
-- notification_preferences holds a row per person and kind changed from
-- the default (inbox and email on). space_activity is a short-lived log
-- of comments, reviews, merges and edits per space: servers poll it by id
-- to tell the people watching a space, whichever replica they are on;
-- rows older than an hour are pruned.

-- +goose Up
CREATE TABLE notifications (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient         TEXT NOT NULL,
    kind              TEXT NOT NULL,
    space_id          TEXT NOT NULL,
    change_request_id TEXT NOT NULL DEFAULT '',
    comment_id        TEXT NOT NULL DEFAULT '',
    actor             TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    read_at           BIGINT
);
CREATE INDEX notifications_recipient ON notifications (recipient, id);
CREATE INDEX notifications_unread ON notifications (recipient) WHERE read_at IS NULL;

CREATE TABLE notification_preferences (
    user_id TEXT NOT NULL,
    kind    TEXT NOT NULL,
    inbox   BOOLEAN NOT NULL,
    email   BOOLEAN NOT NULL,
    PRIMARY KEY (user_id, kind)
);

CREATE TABLE space_activity (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    space_id          TEXT NOT NULL,
    kind              TEXT NOT NULL,
    actor             TEXT NOT NULL,
    change_request_id TEXT NOT NULL DEFAULT '',
    comment_id        TEXT NOT NULL DEFAULT '',
    created_at        BIGINT NOT NULL
);
CREATE INDEX space_activity_created ON space_activity (created_at);

-- +goose Down
DROP TABLE space_activity;
DROP TABLE notification_preferences;
DROP TABLE notifications;
