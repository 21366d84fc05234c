-- A crawled page's audit (encoded as the results column of crawl_urls
-- was) in a table of its own: crawl_urls' rows stay small, so recording a
-- page, counting inlinks and reading the frontier or the lists do not
-- rewrite the audit's TOAST. Pages recorded before keep their audit in
-- crawl_urls.results; a page's audit here comes first.
CREATE TABLE crawl_audits (
    url_id  bigint PRIMARY KEY REFERENCES crawl_urls (id) ON DELETE CASCADE,
    results jsonb  NOT NULL
);
