DROP INDEX crawl_links_to;
--bun:split
CREATE INDEX crawl_links_to ON crawl_links (crawl_id, to_url);
