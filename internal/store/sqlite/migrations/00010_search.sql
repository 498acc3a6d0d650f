-- Content events and the full-text search index.
--
-- content_events is the outbox of moves of a space's current revision:
-- a row is written in the same transaction as the move, and a background
-- job hands it to the subscribers (the search index among them) and
-- deletes it.
--
-- search_sections holds one row per section of an indexed page (the text
-- before the first heading, then one per heading), with the original
-- text for results and snippets; search_fts indexes its folded text
-- (accents removed, CJK characters spaced apart so that a run of them is
-- found as a phrase) with English stemming. search_spaces records which
-- revision of each space the index holds. search_fts carries the space
-- (not indexed), so that a search filters and ranks inside the index and
-- joins only the best rows to search_sections.

-- +goose Up
CREATE TABLE content_events (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    space_id      TEXT NOT NULL,
    prev_revision TEXT NOT NULL,
    next_revision TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX content_events_space ON content_events (space_id, id);

CREATE TABLE search_spaces (
    space_id TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    revision TEXT NOT NULL
);

CREATE TABLE search_sections (
    id         INTEGER PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id    TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    page_title TEXT NOT NULL,
    page_path  TEXT NOT NULL,
    anchor     TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);

CREATE VIRTUAL TABLE search_fts USING fts5 (
    space_id UNINDEXED, title, body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- +goose StatementBegin
CREATE TRIGGER search_sections_gone AFTER DELETE ON search_sections BEGIN
    DELETE FROM search_fts WHERE rowid = old.id;
END;
-- +goose StatementEnd

-- Spaces holding content before the index existed are indexed by the
-- recovery of events that waited: one event each, dated long ago.
INSERT INTO content_events (space_id, prev_revision, next_revision, created_at)
    SELECT id, '', revision, 0 FROM spaces WHERE revision <> '';

-- +goose Down
DROP TRIGGER search_sections_gone;
DROP TABLE search_fts;
DROP TABLE search_sections;
DROP TABLE search_spaces;
DROP TABLE content_events;
