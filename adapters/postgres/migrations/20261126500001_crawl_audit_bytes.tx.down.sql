-- Back to jsonb: the audits stored as JSON keep it; those stored as
-- compressed bytes, which the code before cannot read, are dropped (their
-- pages then show no audit).
DELETE FROM crawl_audits WHERE get_byte(results, 0) NOT IN (34, 123); -- '"', '{'
--bun:split
ALTER TABLE crawl_audits ALTER COLUMN results TYPE jsonb USING convert_from(results, 'UTF8')::jsonb;
