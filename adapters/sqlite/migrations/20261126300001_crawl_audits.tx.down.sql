UPDATE crawl_urls SET results = (SELECT a.results FROM crawl_audits AS a WHERE a.url_id = crawl_urls.id)
WHERE id IN (SELECT url_id FROM crawl_audits);
--bun:split
DROP TABLE crawl_audits;
