UPDATE crawl_urls AS u SET results = a.results FROM crawl_audits AS a WHERE a.url_id = u.id;
--bun:split
DROP TABLE crawl_audits;
