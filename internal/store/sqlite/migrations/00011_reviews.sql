-- Reviews of change requests, the reviewers asked for one, and the
-- merges let through by a bypass of the merge rules.
--
-- A review is made against the change request's revision of the time;
-- superseded is set once the same reviewer reviews again. comment_id is
-- the comment the review's text became (comments.review_id points back).
-- A requested reviewer is one row per change request and user, replaced
-- when asked again and removed when that user reviews. content_events
-- now carries a kind: 'revision' for a move of the space's revision (the
-- only kind before), or an event of a change request's review.

-- +goose Up
CREATE TABLE change_request_reviews (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    revision          TEXT NOT NULL,
    reviewer          TEXT NOT NULL REFERENCES users (id),
    requested_by      TEXT REFERENCES users (id),
    status            TEXT NOT NULL CHECK (status IN ('approved', 'changes-requested')),
    comment_id        TEXT REFERENCES comments (id) ON DELETE SET NULL,
    superseded        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews (change_request_id, created_at, id);

CREATE TABLE change_request_reviewers (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id),
    revision          TEXT NOT NULL,
    requested_by      TEXT NOT NULL REFERENCES users (id),
    created_at        BIGINT NOT NULL,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_reviewers_order ON change_request_reviewers (change_request_id, created_at, user_id);

CREATE TABLE merge_bypasses (
    change_request_id TEXT PRIMARY KEY REFERENCES change_requests (id) ON DELETE CASCADE,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id),
    revision          TEXT NOT NULL,
    rules             TEXT NOT NULL,
    created_at        BIGINT NOT NULL
);

ALTER TABLE comments ADD COLUMN review_id TEXT NOT NULL DEFAULT '';

ALTER TABLE content_events ADD COLUMN kind TEXT NOT NULL DEFAULT 'revision';
ALTER TABLE content_events ADD COLUMN change_request_id TEXT NOT NULL DEFAULT '';
ALTER TABLE content_events ADD COLUMN subject TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE content_events DROP COLUMN subject;
ALTER TABLE content_events DROP COLUMN change_request_id;
ALTER TABLE content_events DROP COLUMN kind;
ALTER TABLE comments DROP COLUMN review_id;
DROP TABLE merge_bypasses;
DROP TABLE change_request_reviewers;
DROP TABLE change_request_reviews;
