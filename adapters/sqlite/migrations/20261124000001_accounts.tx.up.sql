-- Times are RFC 3339 text in UTC with six fractional digits (text order is
-- time order). AUTOINCREMENT: an id is never reused, even the newest one's
-- after a delete.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    email         TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL DEFAULT '',
    created_at    TEXT    NOT NULL
) STRICT;
--bun:split
CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    prefix       TEXT    NOT NULL,
    hash         TEXT    NOT NULL UNIQUE,
    created_at   TEXT    NOT NULL,
    last_used_at TEXT
) STRICT;
--bun:split
CREATE INDEX api_keys_user_id ON api_keys (user_id);
