-- The history of reports: every finished analysis of a report is kept as a
-- run (score, rating, the ids of the failed checks). (The schedule columns
-- came with 20261125100001, which rebuilt the table.)
CREATE TABLE report_runs (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    report_id INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    at        TEXT    NOT NULL,
    score     INTEGER NOT NULL,
    rating    TEXT    NOT NULL,
    failing   TEXT    NOT NULL CHECK (json_valid(failing))
) STRICT;
--bun:split
CREATE INDEX report_runs_report ON report_runs (report_id, id);
