CREATE EXTENSION IF NOT EXISTS postgis;
--bun:split
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--bun:split
CREATE TABLE users (
    id            bigserial PRIMARY KEY,
    email         text        NOT NULL UNIQUE,
    password_hash text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL
);
--bun:split
CREATE TABLE api_keys (
    id           bigserial PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text        NOT NULL,
    prefix       text        NOT NULL,
    hash         text        NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz
);
--bun:split
CREATE INDEX api_keys_user_id ON api_keys (user_id);
