-- A crawled page's audit as bytes: the compressed audit itself (its
-- dictionary's marker, a colon, S2's block), not its base64 in a JSON
-- string the engine checks: a quarter smaller to write and read. An audit
-- stored before keeps its JSON (the JSON object, or the JSON string of
-- base64), as bytes, which the store still reads. SQLite cannot drop the
-- column's CHECK: the table is written anew and renamed.
CREATE TABLE crawl_audits_bytes (
    url_id  INTEGER PRIMARY KEY REFERENCES crawl_urls (id) ON DELETE CASCADE,
    results BLOB    NOT NULL
) STRICT;
--bun:split
INSERT INTO crawl_audits_bytes (url_id, results) SELECT url_id, CAST(results AS BLOB) FROM crawl_audits;
--bun:split
DROP TABLE crawl_audits;
--bun:split
ALTER TABLE crawl_audits_bytes RENAME TO crawl_audits;
