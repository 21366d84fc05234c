ALTER TABLE crawl_urls DROP COLUMN failing;
