-- Rendered crawls (crawl.Settings.Render): when the daily quota of renders
-- charged for a crawl is all back by itself; each recorded page's render
-- (crawl.PageRender: rendered or not, why, its rendered issues); whether a
-- URL was first found through a link only a rendered DOM has; and a
-- rendered page's raw-versus-rendered comparison beside its audit.
ALTER TABLE crawls ADD COLUMN render_quota_until TEXT NOT NULL DEFAULT '0001-01-01T00:00:00.000000Z';
--bun:split
ALTER TABLE crawl_urls ADD COLUMN render TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(render));
--bun:split
ALTER TABLE crawl_urls ADD COLUMN found_by_js INTEGER NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE crawl_audits ADD COLUMN rendering TEXT CHECK (rendering IS NULL OR json_valid(rendering));
