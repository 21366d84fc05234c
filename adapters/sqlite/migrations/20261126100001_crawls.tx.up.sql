-- Whole-site audits. A crawl's settings, summary and request headers are
-- JSON (headers are 'null' once the crawl is final); its progress counters
-- are kept with its frontier writes. crawl_sites holds the one crawl
-- running per site, until its lease expires. crawl_urls is the frontier
-- and the page records in one: a URL once per crawl, with its depth
-- (sitemap-only URLs stored as 1073741824, so they sort last), its lease
-- while a crawler fetches it, and its record once recorded (results,
-- the page audit, last). Links go from a recorded URL's row to a URL.
CREATE TABLE crawls (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token            TEXT    NOT NULL UNIQUE,
    site             TEXT    NOT NULL,
    site_key         TEXT    NOT NULL,
    settings         TEXT    NOT NULL CHECK (json_valid(settings)),
    headers          TEXT    NOT NULL CHECK (json_valid(headers)),
    password_hash    TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'finished', 'cancelled', 'failed')),
    failure          TEXT    NOT NULL,
    cancel_requested INTEGER NOT NULL,
    discovered       INTEGER NOT NULL,
    crawled          INTEGER NOT NULL,
    failed           INTEGER NOT NULL,
    blocked          INTEGER NOT NULL,
    score            INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
    rating           TEXT    NOT NULL CHECK (rating IN ('', 'good', 'decent', 'bad')),
    summary          TEXT    NOT NULL CHECK (json_valid(summary)),
    created_at       TEXT    NOT NULL,
    started_at       TEXT    NOT NULL,
    finished_at      TEXT    NOT NULL
) STRICT;
--bun:split
CREATE INDEX crawls_user ON crawls (user_id, id);
--bun:split
CREATE INDEX crawls_user_site ON crawls (user_id, site, status, id);
--bun:split
CREATE INDEX crawls_user_status ON crawls (user_id, status);
--bun:split
CREATE TABLE crawl_sites (
    site        TEXT    PRIMARY KEY,
    crawl_id    INTEGER NOT NULL UNIQUE REFERENCES crawls (id) ON DELETE CASCADE,
    holder      TEXT    NOT NULL,
    lease_until TEXT    NOT NULL
) STRICT;
--bun:split
CREATE TABLE crawl_urls (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    crawl_id      INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    url           TEXT    NOT NULL,
    depth         INTEGER NOT NULL,
    in_sitemap    INTEGER NOT NULL,
    source        TEXT    NOT NULL,
    attempts      INTEGER NOT NULL,
    lease_until   TEXT    NOT NULL,
    recorded      INTEGER NOT NULL,
    final_url     TEXT    NOT NULL,
    status_code   INTEGER NOT NULL,
    failure       TEXT    NOT NULL,
    redirects     TEXT    NOT NULL CHECK (json_valid(redirects)),
    redirect_loop INTEGER NOT NULL,
    title         TEXT    NOT NULL,
    description   TEXT    NOT NULL,
    canonical     TEXT    NOT NULL,
    noindex       INTEGER NOT NULL,
    fingerprint   INTEGER NOT NULL,
    hreflang      TEXT    NOT NULL CHECK (json_valid(hreflang)),
    blocked       INTEGER NOT NULL,
    indexable     INTEGER NOT NULL,
    outlinks      INTEGER NOT NULL,
    inlinks       INTEGER NOT NULL,
    score         INTEGER NOT NULL,
    rating        TEXT    NOT NULL,
    response_us   INTEGER NOT NULL,
    bytes         INTEGER NOT NULL,
    fetched_at    TEXT    NOT NULL,
    results       TEXT    NOT NULL CHECK (json_valid(results))
) STRICT;
--bun:split
CREATE UNIQUE INDEX crawl_urls_url ON crawl_urls (crawl_id, url);
--bun:split
CREATE INDEX crawl_urls_depth ON crawl_urls (crawl_id, recorded, depth, id);
--bun:split
CREATE INDEX crawl_urls_score ON crawl_urls (crawl_id, recorded, score, id);
--bun:split
CREATE INDEX crawl_urls_inlinks ON crawl_urls (crawl_id, recorded, inlinks, id);
--bun:split
CREATE INDEX crawl_urls_response ON crawl_urls (crawl_id, recorded, response_us, id);
--bun:split
CREATE INDEX crawl_urls_sorted ON crawl_urls (crawl_id, recorded, url, id);
--bun:split
CREATE TABLE crawl_links (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    crawl_id INTEGER NOT NULL,
    from_id  INTEGER NOT NULL REFERENCES crawl_urls (id) ON DELETE CASCADE,
    to_url   TEXT    NOT NULL
) STRICT;
--bun:split
CREATE INDEX crawl_links_from ON crawl_links (from_id, id);
--bun:split
CREATE INDEX crawl_links_to ON crawl_links (crawl_id, to_url);
--bun:split
CREATE TABLE crawl_issues (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    crawl_id      INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    type          TEXT    NOT NULL,
    severity      TEXT    NOT NULL,
    url           TEXT    NOT NULL,
    line          INTEGER NOT NULL,
    line_text     TEXT    NOT NULL,
    detail        TEXT    NOT NULL,
    related       TEXT    NOT NULL CHECK (json_valid(related)),
    related_total INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX crawl_issues_crawl ON crawl_issues (crawl_id, id);
--bun:split
CREATE INDEX crawl_issues_type ON crawl_issues (crawl_id, type, id);
--bun:split
CREATE INDEX crawl_issues_severity ON crawl_issues (crawl_id, severity, id);
--bun:split
CREATE INDEX crawl_issues_url ON crawl_issues (crawl_id, url, type);
