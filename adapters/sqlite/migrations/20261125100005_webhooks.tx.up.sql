-- Users' webhooks (secrets kept to sign deliveries; events a JSON list) and
-- their deliveries (the signed event's body, status, attempts, last error
-- and the last answer's status).
CREATE TABLE webhooks (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL,
    url        TEXT    NOT NULL,
    secret     TEXT    NOT NULL,
    events     TEXT    NOT NULL CHECK (json_valid(events)),
    created_at TEXT    NOT NULL
) STRICT;
--bun:split
CREATE INDEX webhooks_user ON webhooks (user_id, id);
--bun:split
CREATE TABLE webhook_deliveries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id      INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    report_id       INTEGER NOT NULL,
    event           TEXT    NOT NULL,
    body            BLOB    NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL,
    last_error      TEXT    NOT NULL,
    response_status INTEGER NOT NULL,
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL
) STRICT;
--bun:split
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);
