-- Comments on a space's content or on a change request's, their replies,
-- and emoji reactions to either. Deleting a comment deletes its replies
-- and reactions; purging a space or removing a change request deletes
-- their comments with everything under them. Ids, keys and emoji use the
-- C collation so they sort bytewise, as in SQLite.

-- +goose Up
-- A comment of a space (change_request_id NULL) or of one of its change
-- requests. The page columns keep what the page was when the comment was
-- posted, for a target that no longer exists.
CREATE TABLE comments (
    id                TEXT COLLATE "C" PRIMARY KEY,
    space_id          TEXT COLLATE "C" NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT COLLATE "C" REFERENCES change_requests (id) ON DELETE CASCADE,
    revision          TEXT NOT NULL,
    page_id           TEXT COLLATE "C" NOT NULL DEFAULT '',
    page_title        TEXT NOT NULL DEFAULT '',
    page_emoji        TEXT NOT NULL DEFAULT '',
    page_icon         TEXT NOT NULL DEFAULT '',
    page_path         TEXT NOT NULL DEFAULT '',
    node_id           TEXT COLLATE "C" NOT NULL DEFAULT '',
    node_preview      TEXT NOT NULL DEFAULT '',
    table_record      TEXT NOT NULL DEFAULT '',
    table_definition  TEXT NOT NULL DEFAULT '',
    body              TEXT NOT NULL,
    posted_by         TEXT COLLATE "C" NOT NULL REFERENCES users (id),
    posted_at         BIGINT NOT NULL,
    edited_at         BIGINT,
    status            TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
    resolved_at       BIGINT,
    resolved_by       TEXT COLLATE "C" REFERENCES users (id),
    replies           INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX comments_space ON comments (space_id, change_request_id, posted_at, id);
CREATE INDEX comments_space_page ON comments (space_id, change_request_id, page_id, posted_at, id);
CREATE INDEX comments_change_request ON comments (change_request_id);

CREATE TABLE comment_replies (
    id         TEXT COLLATE "C" PRIMARY KEY,
    comment_id TEXT COLLATE "C" NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    body       TEXT NOT NULL,
    posted_by  TEXT COLLATE "C" NOT NULL REFERENCES users (id),
    posted_at  BIGINT NOT NULL,
    edited_at  BIGINT
);
CREATE INDEX comment_replies_comment ON comment_replies (comment_id, posted_at, id);

-- One row per user and emoji on a comment or a reply (target). comment_id
-- is the comment, or the reply's comment; reply_id is set for a reply.
CREATE TABLE comment_reactions (
    target     TEXT COLLATE "C" NOT NULL,
    comment_id TEXT COLLATE "C" NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    reply_id   TEXT COLLATE "C" REFERENCES comment_replies (id) ON DELETE CASCADE,
    emoji      TEXT COLLATE "C" NOT NULL,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reacted_at BIGINT NOT NULL,
    PRIMARY KEY (target, emoji, user_id)
);
CREATE INDEX comment_reactions_comment ON comment_reactions (comment_id);
CREATE INDEX comment_reactions_reply ON comment_reactions (reply_id);

-- +goose Down
DROP TABLE comment_reactions;
DROP TABLE comment_replies;
DROP TABLE comments;
