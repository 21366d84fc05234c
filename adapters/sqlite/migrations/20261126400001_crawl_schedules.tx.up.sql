-- Scheduled crawls: a crawl with a schedule (in its settings) runs again
-- at next_run_at (the zero time without one) as a new crawl naming it in
-- scheduled_from (0 for a crawl its user asked for). Crawls stored before
-- keep no next run: setting their schedule again (PATCH) starts it.
ALTER TABLE crawls ADD COLUMN next_run_at TEXT NOT NULL DEFAULT '0001-01-01T00:00:00.000000Z';
--bun:split
ALTER TABLE crawls ADD COLUMN scheduled_from INTEGER NOT NULL DEFAULT 0;
--bun:split
CREATE INDEX crawls_due ON crawls (next_run_at);
--bun:split
CREATE INDEX crawls_scheduled_from ON crawls (scheduled_from, status);
