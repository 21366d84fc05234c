-- Each recorded page's failing page checks (the ids of its audit's checks
-- that did not pass, as a JSON list), kept at record time so that a
-- crawl's summary counts them without decoding every page's audit. The
-- pages of unfinished crawls get theirs from their audits; a finished
-- crawl's summary is stored already.
ALTER TABLE crawl_urls ADD COLUMN failing jsonb NOT NULL DEFAULT '[]';
--bun:split
UPDATE crawl_urls AS u SET failing = COALESCE((
    SELECT jsonb_agg(c ->> 'id')
    FROM jsonb_each(u.results) AS k (category, checks), jsonb_array_elements(k.checks) AS c
    WHERE (c ->> 'passed')::boolean = false
), '[]'::jsonb)
WHERE recorded AND rating <> ''
  AND crawl_id IN (SELECT id FROM crawls WHERE status IN ('queued', 'running'));
