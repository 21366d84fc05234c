DROP INDEX crawl_urls_score;
--bun:split
CREATE INDEX crawl_urls_score ON crawl_urls (crawl_id, recorded, score, id);
--bun:split
DROP INDEX crawl_urls_inlinks;
--bun:split
CREATE INDEX crawl_urls_inlinks ON crawl_urls (crawl_id, recorded, inlinks, id);
--bun:split
DROP INDEX crawl_urls_response;
--bun:split
CREATE INDEX crawl_urls_response ON crawl_urls (crawl_id, recorded, response_us, id);
--bun:split
DROP INDEX crawl_urls_sorted;
--bun:split
CREATE INDEX crawl_urls_sorted ON crawl_urls (crawl_id, recorded, url COLLATE "C", id);
