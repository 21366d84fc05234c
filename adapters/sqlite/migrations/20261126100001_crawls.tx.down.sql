DROP TABLE crawl_issues;
--bun:split
DROP TABLE crawl_links;
--bun:split
DROP TABLE crawl_urls;
--bun:split
DROP TABLE crawl_sites;
--bun:split
DROP TABLE crawls;
