ALTER TABLE crawls DROP COLUMN links_not_read;
--bun:split
ALTER TABLE crawls DROP COLUMN not_queued;
