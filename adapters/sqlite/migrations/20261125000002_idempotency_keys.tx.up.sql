-- What a creation request sent with an Idempotency-Key left, per user and
-- key, for 24 hours (expires_at; purged after): a digest of the request,
-- the claim of the request running under it (http_status 0, until locked_until)
-- or the status of its answer and the reports it created (a JSON array of
-- ids, in request order). The row is finished in the reports' transaction.
CREATE TABLE idempotency_keys (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key          TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    fingerprint  TEXT    NOT NULL,
    claim        TEXT    NOT NULL,
    http_status  INTEGER NOT NULL DEFAULT 0,
    report_ids   TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(report_ids)),
    locked_until TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
) STRICT;
--bun:split
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
