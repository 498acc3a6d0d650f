-- notified remembers when a person was last told of a kind of thing about
-- a change request, by any channel (inbox or email), so that notices
-- throttled per change request (edits) stay throttled for a person who
-- takes them by email alone.

-- +goose Up
CREATE TABLE notified (
    recipient         TEXT NOT NULL,
    kind              TEXT NOT NULL,
    change_request_id TEXT NOT NULL,
    at                BIGINT NOT NULL,
    PRIMARY KEY (recipient, kind, change_request_id)
);

-- +goose Down
DROP TABLE notified;
