-- Rendered crawls (crawl.Settings.Render): when the daily quota of renders
-- charged for a crawl is all back by itself; each recorded page's render
-- (crawl.PageRender: rendered or not, why, its rendered issues); whether a
-- URL was first found through a link only a rendered DOM has; and a
-- rendered page's raw-versus-rendered comparison beside its audit.
ALTER TABLE crawls ADD COLUMN render_quota_until timestamptz NOT NULL DEFAULT '0001-01-01 00:00:00+00';
--bun:split
ALTER TABLE crawl_urls ADD COLUMN render jsonb NOT NULL DEFAULT '{}';
--bun:split
ALTER TABLE crawl_urls ADD COLUMN found_by_js boolean NOT NULL DEFAULT FALSE;
--bun:split
ALTER TABLE crawl_audits ADD COLUMN rendering jsonb;
