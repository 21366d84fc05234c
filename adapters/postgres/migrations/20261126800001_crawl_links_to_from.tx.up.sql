-- A crawl's finish counts each recorded page's inlinks, the links to its
-- URL from other pages: with from_id in the index, that count reads the
-- index alone instead of every link's row too.
DROP INDEX crawl_links_to;
--bun:split
CREATE INDEX crawl_links_to ON crawl_links (crawl_id, to_url, from_id);
