// Package crawlsite serves a generated fixture website for whole-site audits
// (crawls): an http.Handler in which every site-level issue type of
// domain/crawl's Catalogue is planted a known number of times, each type a
// different number, so that a crawl of it must report exactly Expected().
//
// The site has a start page (StartPath), section pages linking to filler
// pages (as many as Options.Pages asks for), robots.txt (rules for the
// crawler's "*" group, groups for AI crawlers, and invalid lines),
// sitemaps (/sitemap.xml, a sitemap index with a plain and gzipped
// sitemaps), a well-formed /llms.txt, and the planted URLs: broken links,
// redirect chains and loops, orphans, duplicates, noindex and non-canonical
// sitemap URLs, blocked URLs, deep pages, bad canonicals and hreflang
// alternates without return links. Links are relative; the URLs in
// robots.txt, the sitemaps and llms.txt are absolute, written with the
// request's Host.
//
// The counts hold under domain/crawl's definitions for a crawler that:
//   - reads robots.txt with its user agent falling in the "*" group (a
//     product token none of the named groups uses), and the sitemaps that
//     robots.txt lists (which include /sitemap.xml), indexes and gzip
//     included, keeping only on-site URLs;
//   - follows a[href], rel=next/prev, canonical and hreflang links on the
//     site, sets each URL's depth to the fewest clicks from the start URL
//     (NoDepth for URLs found only in sitemaps), and keeps a Page record for
//     each URL it requests or skips for robots.txt;
//   - follows redirects hop by hop (at most crawl.MaxRedirects), keeping
//     them on the first URL's record: later hops get no record of their own
//     (every redirect target here is also linked, so it has one);
//   - takes a page's main text as the text of its <main> element (the
//     pages with planted duplicate content have nothing else in <body>),
//     never the <head>.
//
// The package's test crawls the site with a small reference crawler that
// does exactly that, feeds domain/crawl's Detector and checks the issues,
// URL by URL, and Stats.
package crawlsite
