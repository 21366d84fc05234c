-- The pages' list orders (score, inlinks, response time, url) cover only
-- recorded rows: a URL waiting in the frontier enters none of them, and
-- recording it adds one entry to each instead of moving one.
DROP INDEX crawl_urls_score;
--bun:split
CREATE INDEX crawl_urls_score ON crawl_urls (crawl_id, score, id) WHERE recorded = TRUE;
--bun:split
DROP INDEX crawl_urls_inlinks;
--bun:split
CREATE INDEX crawl_urls_inlinks ON crawl_urls (crawl_id, inlinks, id) WHERE recorded = TRUE;
--bun:split
DROP INDEX crawl_urls_response;
--bun:split
CREATE INDEX crawl_urls_response ON crawl_urls (crawl_id, response_us, id) WHERE recorded = TRUE;
--bun:split
DROP INDEX crawl_urls_sorted;
--bun:split
CREATE INDEX crawl_urls_sorted ON crawl_urls (crawl_id, url COLLATE "C", id) WHERE recorded = TRUE;
