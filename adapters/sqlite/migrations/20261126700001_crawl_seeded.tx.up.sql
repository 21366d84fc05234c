-- A crawl is seeded (its start URL and its sitemaps' URLs are in the
-- frontier) once; the crawler reads the sitemaps while it crawls and
-- marks the crawl when they are in. Crawls that recorded a page before
-- this column were seeded before their first page.
ALTER TABLE crawls ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0;
--bun:split
UPDATE crawls SET seeded = 1 WHERE crawled > 0 OR blocked > 0;
