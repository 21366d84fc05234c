-- The queued crawls, by creation time: a crawl's run gives its worker to
-- another user's crawl queued recently whose site is free.
CREATE INDEX crawls_status_created ON crawls (status, created_at);
