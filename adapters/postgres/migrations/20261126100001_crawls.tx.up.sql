-- Whole-site audits. A crawl's settings, summary and request headers are
-- JSON (headers are 'null' once the crawl is final); its progress counters
-- are kept with its frontier writes. crawl_sites holds the one crawl
-- running per site, until its lease expires. crawl_urls is the frontier
-- and the page records in one: a URL once per crawl, with its depth
-- (sitemap-only URLs stored as 1073741824, so they sort last), its lease
-- while a crawler fetches it, and its record once recorded (results,
-- the page audit, last). Links go from a recorded URL's row to a URL.
CREATE TABLE crawls (
    id               bigserial   PRIMARY KEY,
    user_id          bigint  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token            text    NOT NULL UNIQUE,
    site             text    NOT NULL,
    site_key         text    NOT NULL,
    settings         jsonb       NOT NULL,
    headers          jsonb       NOT NULL,
    password_hash    text    NOT NULL,
    status           text    NOT NULL CHECK (status IN ('queued', 'running', 'finished', 'cancelled', 'failed')),
    failure          text    NOT NULL,
    cancel_requested boolean     NOT NULL,
    discovered       bigint  NOT NULL,
    crawled          bigint  NOT NULL,
    failed           bigint  NOT NULL,
    blocked          bigint  NOT NULL,
    score            bigint  NOT NULL CHECK (score BETWEEN 0 AND 100),
    rating           text    NOT NULL CHECK (rating IN ('', 'good', 'decent', 'bad')),
    summary          jsonb       NOT NULL,
    created_at       timestamptz NOT NULL,
    started_at       timestamptz NOT NULL,
    finished_at      timestamptz NOT NULL
);
--bun:split
CREATE INDEX crawls_user ON crawls (user_id, id);
--bun:split
CREATE INDEX crawls_user_site ON crawls (user_id, site, status, id);
--bun:split
CREATE INDEX crawls_user_status ON crawls (user_id, status);
--bun:split
CREATE TABLE crawl_sites (
    site        text    PRIMARY KEY,
    crawl_id    bigint  NOT NULL UNIQUE REFERENCES crawls (id) ON DELETE CASCADE,
    holder      text    NOT NULL,
    lease_until timestamptz NOT NULL
);
--bun:split
CREATE TABLE crawl_urls (
    id            bigserial   PRIMARY KEY,
    crawl_id      bigint  NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    url           text    NOT NULL,
    depth         bigint  NOT NULL,
    in_sitemap    boolean     NOT NULL,
    source        text    NOT NULL,
    attempts      bigint  NOT NULL,
    lease_until   timestamptz NOT NULL,
    recorded      boolean     NOT NULL,
    final_url     text    NOT NULL,
    status_code   bigint  NOT NULL,
    failure       text    NOT NULL,
    redirects     jsonb       NOT NULL,
    redirect_loop boolean     NOT NULL,
    title         text    NOT NULL,
    description   text    NOT NULL,
    canonical     text    NOT NULL,
    noindex       boolean     NOT NULL,
    fingerprint   bigint  NOT NULL,
    hreflang      jsonb       NOT NULL,
    blocked       boolean     NOT NULL,
    indexable     boolean     NOT NULL,
    outlinks      bigint  NOT NULL,
    inlinks       bigint  NOT NULL,
    score         bigint  NOT NULL,
    rating        text    NOT NULL,
    response_us   bigint  NOT NULL,
    bytes         bigint  NOT NULL,
    fetched_at    timestamptz NOT NULL,
    results       jsonb       NOT NULL
);
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
CREATE INDEX crawl_urls_sorted ON crawl_urls (crawl_id, recorded, url COLLATE "C", id);
--bun:split
CREATE TABLE crawl_links (
    id       bigserial   PRIMARY KEY,
    crawl_id bigint  NOT NULL,
    from_id  bigint  NOT NULL REFERENCES crawl_urls (id) ON DELETE CASCADE,
    to_url   text    NOT NULL
);
--bun:split
CREATE INDEX crawl_links_from ON crawl_links (from_id, id);
--bun:split
CREATE INDEX crawl_links_to ON crawl_links (crawl_id, to_url);
--bun:split
CREATE TABLE crawl_issues (
    id            bigserial   PRIMARY KEY,
    crawl_id      bigint  NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    type          text    NOT NULL,
    severity      text    NOT NULL,
    url           text    NOT NULL,
    line          bigint  NOT NULL,
    line_text     text    NOT NULL,
    detail        text    NOT NULL,
    related       jsonb       NOT NULL,
    related_total bigint  NOT NULL
);
--bun:split
CREATE INDEX crawl_issues_crawl ON crawl_issues (crawl_id, id);
--bun:split
CREATE INDEX crawl_issues_type ON crawl_issues (crawl_id, type, id);
--bun:split
CREATE INDEX crawl_issues_severity ON crawl_issues (crawl_id, severity, id);
--bun:split
CREATE INDEX crawl_issues_url ON crawl_issues (crawl_id, url, type);
