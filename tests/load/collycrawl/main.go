// Command collycrawl is the yardstick of crawl speed: a plain gocolly/colly
// crawler that only fetches a site's pages and follows their links on the
// same site (scheme, host and port), with 8 requests in flight, and prints
// the pages it fetched per second. Pinsight's crawler, crawling the same
// site in the same run, is measured against it.
//
//	go run . -url http://127.0.0.1:18085/
//
// It is a module of its own, so that colly and its dependencies stay out
// of Pinsight's go.mod; go test -bench . in this folder serves the
// tests/crawlsite fixture on loopback and crawls it.
package main

import (
	"flag"
	"fmt"
	"log"
)

func main() {
	start := flag.String("url", "", "the start URL of the site to crawl")
	parallel := flag.Int("parallel", 8, "requests in flight")
	idle := flag.Int("idle", 8, "idle connections kept per host (0: colly's default client, which keeps 2)")
	flag.Parse()
	if *start == "" || *parallel < 1 {
		flag.Usage()
		log.Fatal("collycrawl: -url is required and -parallel must be at least 1")
	}
	res, err := Crawl(*start, *parallel, *idle)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("colly: %d pages (%d errors) in %.2f s: %.0f pages/s (%d in flight)\n",
		res.Pages, res.Errors, res.Elapsed.Seconds(), res.PagesPerSecond(), *parallel)
}
