-- What a creation request sent with an Idempotency-Key left, per user and
-- key, for 24 hours (expires_at; purged after): a digest of the request,
-- the claim of the request running under it (http_status 0, until locked_until)
-- or the status of its answer and the reports it created (their ids, in
-- request order). The row is finished in the reports' transaction.
CREATE TABLE idempotency_keys (
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key          text        NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    fingerprint  text        NOT NULL,
    claim        text        NOT NULL,
    http_status  integer     NOT NULL DEFAULT 0,
    report_ids   bigint[]    NOT NULL DEFAULT '{}',
    locked_until timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (user_id, key)
);
--bun:split
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
