// Command crawlfixture serves the crawl fixture site (tests/crawlsite) on
// an address of this machine: the site whole-site audits are measured on,
// by Pinsight's crawler and by the colly yardstick (tests/load/collycrawl)
// in the same run. It prints the site's size and planted issue counts,
// then serves until interrupted.
//
//	go run ./tests/load/crawlfixture -addr 127.0.0.1:18085 -pages 2000
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/pinsight/pinsight/tests/crawlsite"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18085", "listen address (loopback only: this is a test fixture)")
	pages := flag.Int("pages", 2000, "URLs a complete crawl records")
	latency := flag.Duration("latency", 0, "delay before every answer")
	flag.Parse()
	site := crawlsite.New(crawlsite.Options{Pages: *pages, Latency: *latency})
	st := site.Stats()
	fmt.Printf("crawl fixture on http://%s%s: %d records (%d pages, %d redirects, %d errors, %d blocked); issues %v\n",
		*addr, crawlsite.StartPath, st.Records, st.Landed, st.Redirected, st.Errors, st.Blocked, site.Expected())
	srv := &http.Server{Addr: *addr, Handler: site, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
