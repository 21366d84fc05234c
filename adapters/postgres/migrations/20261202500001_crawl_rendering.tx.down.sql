ALTER TABLE crawl_audits DROP COLUMN rendering;
--bun:split
ALTER TABLE crawl_urls DROP COLUMN found_by_js;
--bun:split
ALTER TABLE crawl_urls DROP COLUMN render;
--bun:split
ALTER TABLE crawls DROP COLUMN render_quota_until;
