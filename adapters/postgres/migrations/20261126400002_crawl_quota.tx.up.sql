-- When the pages a crawl charged to its user's daily page quota are all
-- back in the quota by themselves (the zero time: none charged): until
-- then, the pages it did not crawl are given back when it ends.
ALTER TABLE crawls ADD COLUMN quota_until timestamptz NOT NULL DEFAULT '0001-01-01 00:00:00+00';
