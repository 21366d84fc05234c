-- Users' webhooks (secrets kept to sign deliveries; events a JSON list) and
-- their deliveries (the signed event's body, status, attempts, last error
-- and the last answer's status).
CREATE TABLE webhooks (
    id         bigserial   PRIMARY KEY,
    user_id    bigint NOT NULL,
    url        text    NOT NULL,
    secret     text    NOT NULL,
    events     text   NOT NULL,
    created_at timestamptz NOT NULL
);
--bun:split
CREATE INDEX webhooks_user ON webhooks (user_id, id);
--bun:split
CREATE TABLE webhook_deliveries (
    id              bigserial   PRIMARY KEY,
    webhook_id      bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    user_id         bigint NOT NULL,
    report_id       bigint NOT NULL,
    event           text    NOT NULL,
    body            bytea   NOT NULL,
    status          text    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        bigint NOT NULL,
    last_error      text    NOT NULL,
    response_status bigint NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
--bun:split
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);
