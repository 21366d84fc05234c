-- Where the imported dataset was read from (postal.Source as JSON: the
-- embedded snapshot or files, the release date, each file's name, date,
-- rows and SHA-256), so that /dataset says it on Postgres too. A dataset
-- imported before this column existed is of unknown origin.
ALTER TABLE postal_dataset ADD COLUMN source jsonb NOT NULL DEFAULT '{"kind": "unknown"}';
