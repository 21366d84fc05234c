-- Each report gets its public share token (the report page is /r/TOKEN): 26
-- characters of lower-case base32, drawn from SQLite's ChaCha20 generator
-- (seeded by the system) for the reports that exist; the server draws the
-- others (site.NewShareToken). The table is rebuilt to put results, the one
-- large column, last: reading the columns before it (as every list does)
-- then never walks its overflow pages.
CREATE TABLE reports_next (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token         TEXT    NOT NULL CHECK (length(token) = 26),
    url           TEXT    NOT NULL,
    url_key       TEXT    NOT NULL,
    project       TEXT    NOT NULL,
    score         INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
    rating        TEXT    NOT NULL CHECK (rating IN ('good', 'decent', 'bad')),
    privacy       INTEGER NOT NULL CHECK (privacy IN (0, 1, 2)),
    password_hash TEXT    NOT NULL DEFAULT '',
    generated_at  TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    results       TEXT    NOT NULL CHECK (json_valid(results))
) STRICT;
--bun:split
INSERT INTO reports_next (id, user_id, token, url, url_key, project, score, rating, privacy, password_hash,
                          generated_at, created_at, updated_at, results)
SELECT id, user_id,
       (SELECT group_concat(substr('abcdefghijklmnopqrstuvwxyz234567', (random() & 31) + 1, 1), '')
        FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 26) SELECT i FROM n)
        WHERE reports.id IS NOT NULL), -- correlated: drawn again for each row
       url, url_key, project, score, rating, privacy, password_hash, generated_at, created_at, updated_at, results
FROM reports;
--bun:split
-- AUTOINCREMENT's counter moves along, so the id of a deleted newest report
-- is still never reused.
DELETE FROM sqlite_sequence WHERE name = 'reports_next';
--bun:split
INSERT INTO sqlite_sequence (name, seq) SELECT 'reports_next', seq FROM sqlite_sequence WHERE name = 'reports';
--bun:split
DROP TABLE reports;
--bun:split
ALTER TABLE reports_next RENAME TO reports;
--bun:split
CREATE INDEX reports_user_id ON reports (user_id, id);
--bun:split
CREATE INDEX reports_user_project ON reports (user_id, project);
--bun:split
CREATE UNIQUE INDEX reports_token ON reports (token);
