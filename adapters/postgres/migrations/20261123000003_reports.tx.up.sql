CREATE TABLE reports (
    id            bigserial   PRIMARY KEY,
    user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url           text        NOT NULL,
    url_key       text        NOT NULL,
    project       text        NOT NULL,
    score         integer     NOT NULL CHECK (score BETWEEN 0 AND 100),
    rating        text        NOT NULL CHECK (rating IN ('good', 'decent', 'bad')),
    results       jsonb       NOT NULL,
    privacy       smallint    NOT NULL CHECK (privacy IN (0, 1, 2)),
    password_hash text        NOT NULL DEFAULT '',
    generated_at  timestamptz NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
--bun:split
CREATE INDEX reports_user_id ON reports (user_id, id);
--bun:split
CREATE INDEX reports_user_project ON reports (user_id, project);
