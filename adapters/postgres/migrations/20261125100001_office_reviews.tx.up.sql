-- Reviews and likes of post offices, keyed on the office's stable identity
-- (office_key = review.Office.Key(): pincode|name key|type|ordinal), never on
-- a release's office id: they survive new releases, and those of an office
-- absent from the loaded release are kept, unseen. Counts are aggregated
-- per page from the primary keys (office_key first).
CREATE TABLE office_reviews (
    office_key text        NOT NULL,
    pincode    text        NOT NULL,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rating     smallint    NOT NULL CHECK (rating BETWEEN 1 AND 5),
    title      text        NOT NULL,
    body       text        NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (office_key, user_id)
);
--bun:split
CREATE INDEX office_reviews_user ON office_reviews (user_id, created_at);
--bun:split
CREATE TABLE office_likes (
    office_key text        NOT NULL,
    pincode    text        NOT NULL,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (office_key, user_id)
);
--bun:split
-- The counts version of each pincode ('' : every pincode), bumped in the
-- transaction of each review or like that changes something (which also
-- sends NOTIFY pinsight_reviews with the pincode): part of the postal
-- answers' ETags.
CREATE TABLE review_versions (
    pincode text   NOT NULL PRIMARY KEY,
    version bigint NOT NULL
);
