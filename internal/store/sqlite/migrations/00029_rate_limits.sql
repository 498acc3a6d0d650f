-- rate_limits counts requests in fixed windows, one row per key (the
-- limit's class and the client address): the rate limits every replica
-- on the database applies together (sign-in, password resets). A row is
-- counted and moved to a newer window by one upsert; rows whose window
-- ended are pruned.

-- +goose Up
CREATE TABLE rate_limits (
    subject      TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    window_end   BIGINT NOT NULL,
    hits         INTEGER NOT NULL
);
CREATE INDEX rate_limits_end ON rate_limits (window_end);

-- +goose Down
DROP TABLE rate_limits;
