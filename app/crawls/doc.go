// Package crawls holds the use cases of whole-site audits: accepting a
// crawl (its settings, the user's bounds and daily page quota, the crawl
// and its job written together), reading and cancelling it, and running
// it as a durable job (Run): a slice at a time, holding the crawled site,
// fetching from the durable frontier with at most the crawl's concurrency
// of requests in flight, auditing each page as reports do, and at the end
// finding the site-level issues.
package crawls
