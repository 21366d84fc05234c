// Package crawl is the pure domain of whole-site audits (crawls): what a
// crawl is asked to do, which URLs it follows, what it keeps of each page,
// and the site-level issues found from those records. It does no I/O; the
// storage, the crawler (on the job queue) and the HTTP API build on it.
//
// The pieces, in the order a crawl meets them:
//
//   - Settings (settings.go, headers.go): NewSettings validates the
//     input of a crawl (Params) into Settings, reporting every invalid
//     field at once in a *report.ValidationError, which transports answer
//     with 422. Privacy, share password and schedule are reports' own
//     (report.ParsePrivacy, report.SharePassword, report.ParseSchedule).
//     Request headers follow CheckHeader.
//   - Crawl, Status and the list query (crawl.go, status.go): the stored
//     crawl, its lifecycle (queued, running, then finished, cancelled or
//     failed: Status.CanBecome) and NewListQuery for GET /crawls.
//   - URLs and scope (normalize.go, punycode.go, scope.go): Normalize
//     and Resolve write every URL in one form, so no page is fetched
//     twice; Settings.Scope decides which URLs are on the site (OnSite),
//     which the crawler fetches (Follows: include and exclude patterns in
//     robots.txt syntax, see Filter) and which receive the crawl's request
//     headers (SameHost).
//   - Politeness (politeness.go and package robots): the crawler reads
//     robots.txt with robots.Parse, asks File.For(its user agent) whether
//     a path is allowed, and pauses Settings.Pause between requests.
//   - AI readiness (aiagents.go, llmstxt.go): AIReadiness says for each
//     of the well-known AI crawlers (AIAgents) whether robots.txt lets it
//     fetch the start URL; CheckLLMsTxt checks /llms.txt against the
//     llmstxt.org format.
//   - Page records (page.go, fingerprint.go): for each URL it fetches,
//     or skips because robots.txt disallows it, the crawler stores a Page:
//     status, redirects, depth, title, description, canonical, noindex,
//     hreflang alternates, sitemap membership, on-site outlinks, and a
//     Fingerprint of the main text (a 64-bit SimHash of 3-word shingles;
//     two texts are nearly the same when at most 3 bits differ). The full
//     page audit of each page is the report's (package pagecheck).
//   - Issues (catalogue.go, issue.go, detect*.go): Catalogue lists the
//     issue types with severity, title, advice and what one issue stands
//     for. When a crawl ends, the crawler streams its Page records from
//     storage into a Detector (NewDetector, Add each, then Finish), which
//     keeps a compact summary per page, never a body, and returns every
//     Issue in a deterministic order, with related URLs bounded by
//     MaxRelated. Counts gives the per-type counts of a crawl's summary.
//     RenderedCatalogue (rendered.go) lists the issue types of rendered
//     pages (content_needs_js, slow_lcp, ...), after Catalogue's;
//     RenderedIssues reads them, with details, from a pagecheck.Rendering
//     into a page's PageRender (RenderOf), which the Detector lists;
//     RenderTally counts a rendered crawl's pages rendered and why.
//   - Diff (diff.go): DiffIssues compares two crawls' issues by Issue.Key
//     into new, fixed and persisting issues grouped by type.
package crawl
