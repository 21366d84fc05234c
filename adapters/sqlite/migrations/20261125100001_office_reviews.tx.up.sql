-- Reviews and likes of post offices, keyed on the office's stable identity
-- (office_key = review.Office.Key(): pincode|name key|type|ordinal), never on
-- a release's office id: they survive new releases, and those of an office
-- absent from the loaded release are kept, unseen. Counts are aggregated
-- per page from the primary keys (office_key first).
CREATE TABLE office_reviews (
    office_key TEXT    NOT NULL,
    pincode    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    title      TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (office_key, user_id)
) STRICT;
--bun:split
CREATE INDEX office_reviews_user ON office_reviews (user_id, created_at);
--bun:split
CREATE TABLE office_likes (
    office_key TEXT    NOT NULL,
    pincode    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (office_key, user_id)
) STRICT;
--bun:split
-- The counts version of each pincode ('' : every pincode), bumped in the
-- transaction of each review or like that changes something: part of the
-- postal answers' ETags.
CREATE TABLE review_versions (
    pincode TEXT    NOT NULL PRIMARY KEY,
    version INTEGER NOT NULL
) STRICT;
