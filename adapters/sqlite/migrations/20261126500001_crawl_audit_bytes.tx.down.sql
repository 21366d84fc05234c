-- Back to JSON text: the audits stored as JSON keep it; those stored as
-- compressed bytes, which the code before cannot read, are dropped (their
-- pages then show no audit).
CREATE TABLE crawl_audits_json (
    url_id  INTEGER PRIMARY KEY REFERENCES crawl_urls (id) ON DELETE CASCADE,
    results TEXT    NOT NULL CHECK (json_valid(results))
) STRICT;
--bun:split
INSERT INTO crawl_audits_json (url_id, results)
SELECT url_id, CAST(results AS TEXT) FROM crawl_audits
WHERE substr(results, 1, 1) IN (CAST('"' AS BLOB), CAST('{' AS BLOB)) AND json_valid(CAST(results AS TEXT));
--bun:split
DROP TABLE crawl_audits;
--bun:split
ALTER TABLE crawl_audits_json RENAME TO crawl_audits;
