DROP INDEX crawls_scheduled_from;
--bun:split
DROP INDEX crawls_due;
--bun:split
ALTER TABLE crawls DROP COLUMN scheduled_from;
--bun:split
ALTER TABLE crawls DROP COLUMN next_run_at;
