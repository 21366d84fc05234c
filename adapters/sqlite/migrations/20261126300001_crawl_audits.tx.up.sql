-- A crawled page's audit (encoded as the results column of crawl_urls
-- was) in a table of its own: crawl_urls' rows stay small, so recording a
-- page, counting inlinks and reading the frontier or the lists do not
-- read and rewrite the audit's overflow pages. Pages recorded before keep
-- their audit in crawl_urls.results; a page's audit here comes first.
CREATE TABLE crawl_audits (
    url_id  INTEGER PRIMARY KEY REFERENCES crawl_urls (id) ON DELETE CASCADE,
    results TEXT    NOT NULL CHECK (json_valid(results))
) STRICT;
