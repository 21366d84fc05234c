DROP TABLE report_runs;
--bun:split
DROP INDEX reports_due;
--bun:split
ALTER TABLE reports DROP COLUMN next_run_at;
--bun:split
ALTER TABLE reports DROP COLUMN schedule;
