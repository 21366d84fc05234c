-- Screenshots of rendered audits: which ones a report's rendered analyses
-- keep ('' is viewport), the kinds stored with its current analysis
-- ('', 'viewport', 'full' or 'viewport,full'; lists show them), and the
-- images, once per report and kind, bounded, deleted with the report. The
-- reports table is rebuilt so that the two new columns come before the
-- large ones, results and rendering, which stay last (reading the columns
-- before them, as every list does, never walks their overflow pages). Its
-- runs are kept aside meanwhile.
CREATE TABLE report_runs_kept AS SELECT * FROM report_runs;
--bun:split
CREATE TABLE reports_next (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token         TEXT    NOT NULL CHECK (length(token) = 26),
    url           TEXT    NOT NULL,
    url_key       TEXT    NOT NULL,
    project       TEXT    NOT NULL,
    score         INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
    rating        TEXT    NOT NULL CHECK (rating IN ('good', 'decent', 'bad', '')),
    privacy       INTEGER NOT NULL CHECK (privacy IN (0, 1, 2)),
    password_hash TEXT    NOT NULL DEFAULT '',
    status        TEXT    NOT NULL DEFAULT 'generated' CHECK (status IN ('pending', 'running', 'generated', 'failed')),
    attempts      INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 0),
    failure       TEXT    NOT NULL DEFAULT '',
    schedule      TEXT    NOT NULL DEFAULT '' CHECK (schedule IN ('', 'daily', 'weekly')),
    next_run_at   TEXT    NOT NULL DEFAULT '0001-01-01T00:00:00.000000Z',
    generated_at  TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    render        TEXT    NOT NULL DEFAULT '' CHECK (render IN ('', 'off', 'on', 'auto')),
    rendered      INTEGER NOT NULL DEFAULT 0 CHECK (rendered IN (0, 1)),
    screenshot    TEXT    NOT NULL DEFAULT '' CHECK (screenshot IN ('', 'viewport', 'full')),
    screenshots   TEXT    NOT NULL DEFAULT '' CHECK (screenshots IN ('', 'viewport', 'full', 'viewport,full')),
    results       TEXT    NOT NULL CHECK (json_valid(results)),
    rendering     TEXT    CHECK (rendering IS NULL OR json_valid(rendering))
) STRICT;
--bun:split
INSERT INTO reports_next (id, user_id, token, url, url_key, project, score, rating, privacy, password_hash, status, attempts, failure, schedule, next_run_at, generated_at, created_at, updated_at, render, rendered, results, rendering)
SELECT id, user_id, token, url, url_key, project, score, rating, privacy, password_hash, status, attempts, failure, schedule, next_run_at, generated_at, created_at, updated_at, render, rendered, results, rendering
FROM reports;
--bun:split
DELETE FROM sqlite_sequence WHERE name = 'reports_next';
--bun:split
INSERT INTO sqlite_sequence (name, seq) SELECT 'reports_next', seq FROM sqlite_sequence WHERE name = 'reports';
--bun:split
-- Dropping reports deletes the runs (ON DELETE CASCADE): they were kept
-- aside and come back.
DROP TABLE reports;
--bun:split
ALTER TABLE reports_next RENAME TO reports;
--bun:split
CREATE INDEX reports_user_id ON reports (user_id, id);
--bun:split
CREATE INDEX reports_user_project ON reports (user_id, project);
--bun:split
CREATE UNIQUE INDEX reports_token ON reports (token);
--bun:split
CREATE INDEX reports_user_status ON reports (user_id, status);
--bun:split
CREATE INDEX reports_due ON reports (next_run_at) WHERE schedule <> '';
--bun:split
INSERT INTO report_runs SELECT * FROM report_runs_kept;
--bun:split
DROP TABLE report_runs_kept;
--bun:split
-- The images: JPEG files, the viewport's at most 300 KiB, the full page's
-- at most 2 MiB (report.MaxViewportShot, report.MaxFullShot).
CREATE TABLE report_screenshots (
    report_id INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    kind      TEXT    NOT NULL CHECK (kind IN ('viewport', 'full')),
    image     BLOB    NOT NULL,
    CHECK (length(image) BETWEEN 1 AND (CASE kind WHEN 'viewport' THEN 307200 ELSE 2097152 END)),
    PRIMARY KEY (report_id, kind)
) STRICT;
