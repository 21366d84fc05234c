-- Each recorded page's language (crawl.Page.Lang: its <html lang>, lower
-- case), which tells translations sharing a title from duplicates.
ALTER TABLE crawl_urls ADD COLUMN lang TEXT NOT NULL DEFAULT '';
