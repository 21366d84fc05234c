-- A crawled page's audit as bytes: the compressed audit itself (its
-- dictionary's marker, a colon, S2's block), not its base64 in a JSON
-- string the server parses into jsonb: a quarter smaller to write and
-- read. An audit stored before keeps its JSON (the JSON object, or the
-- JSON string of base64), as bytes, which the store still reads.
ALTER TABLE crawl_audits ALTER COLUMN results TYPE bytea USING convert_to(results::text, 'UTF8');
