ALTER TABLE crawl_urls DROP COLUMN lang;
