-- What a crawl found and did not keep: URLs found once its frontier was
-- full (crawl.Settings.FrontierCap), and links of pages beyond
-- crawl.MaxLinksPerPage.
ALTER TABLE crawls ADD COLUMN not_queued INTEGER NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE crawls ADD COLUMN links_not_read INTEGER NOT NULL DEFAULT 0;
