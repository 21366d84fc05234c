// Package robots reads robots.txt (RFC 9309): the group of rules that
// applies to a named crawler (For), whether a path is allowed to it, its
// Crawl-delay, the Sitemap lines, and the lines Lighthouse's validation
// rejects (Validate). The page checks read the "*" group; a crawl reads
// the group of its own user agent and of the well-known AI crawlers. It
// does no I/O.
package robots
