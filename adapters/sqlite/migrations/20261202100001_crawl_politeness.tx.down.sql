DROP INDEX crawls_politeness;
--bun:split
ALTER TABLE crawls DROP COLUMN waiting_since;
--bun:split
ALTER TABLE crawls DROP COLUMN politeness;
