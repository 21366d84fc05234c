-- Scheduled re-analyses and their history: a report may be re-analysed
-- daily or weekly (schedule; '' none), next at next_run_at (the zero time
-- without a schedule), and every finished analysis of a report is kept as a
-- run (score, rating, the ids of the failed checks).
ALTER TABLE reports ADD COLUMN schedule text NOT NULL DEFAULT '' CHECK (schedule IN ('', 'daily', 'weekly'));
--bun:split
ALTER TABLE reports ADD COLUMN next_run_at timestamptz NOT NULL DEFAULT '0001-01-01 00:00:00+00';
--bun:split
CREATE INDEX reports_due ON reports (next_run_at) WHERE schedule <> '';
--bun:split
CREATE TABLE report_runs (
    id        bigserial   PRIMARY KEY,
    report_id bigint      NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    user_id   bigint      NOT NULL,
    at        timestamptz NOT NULL,
    score     integer     NOT NULL,
    rating    text        NOT NULL,
    failing   jsonb       NOT NULL
);
--bun:split
CREATE INDEX report_runs_report ON report_runs (report_id, id);
