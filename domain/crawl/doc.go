// Package crawl is the pure domain of whole-site audits (crawls).
package crawl
