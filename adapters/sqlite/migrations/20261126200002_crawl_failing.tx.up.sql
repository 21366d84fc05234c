-- Each recorded page's failing page checks (the ids of its audit's checks
-- that did not pass, as a JSON list), kept at record time so that a
-- crawl's summary counts them without decoding every page's audit. The
-- pages of unfinished crawls get theirs from their audits; a finished
-- crawl's summary is stored already.
ALTER TABLE crawl_urls ADD COLUMN failing TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(failing));
--bun:split
UPDATE crawl_urls SET failing = (
    SELECT json_group_array(json_extract(c.value, '$.id'))
    FROM json_each(crawl_urls.results) AS k, json_each(k.value) AS c
    WHERE json_extract(c.value, '$.passed') = 0
)
WHERE recorded = 1 AND rating <> ''
  AND crawl_id IN (SELECT id FROM crawls WHERE status IN ('queued', 'running'));
