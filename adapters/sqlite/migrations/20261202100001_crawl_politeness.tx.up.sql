-- A crawl's politeness unit (what one running crawl at a time holds, the
-- key of crawl_sites) is its start URL's origin, or its registrable
-- domain with subdomains, no longer its site (the host without "www.",
-- across ports). Crawls stored before keep their site as their unit (the
-- key their holds have), never less polite than the new one; their
-- scheduled runs get the new unit. waiting_since is since when a crawl
-- waits for its site or a worker (zero while it holds its site): the
-- queued crawls since their creation.
ALTER TABLE crawls ADD COLUMN politeness TEXT NOT NULL DEFAULT '';
--bun:split
UPDATE crawls SET politeness = site;
--bun:split
ALTER TABLE crawls ADD COLUMN waiting_since TEXT NOT NULL DEFAULT '0001-01-01T00:00:00.000000Z';
--bun:split
UPDATE crawls SET waiting_since = created_at WHERE status = 'queued';
--bun:split
CREATE INDEX crawls_politeness ON crawls (politeness, status);
