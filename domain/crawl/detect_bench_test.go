package crawl_test

import (
	"fmt"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

// BenchmarkDetector10k streams 10,000 page records, each with 50 links,
// a title, a description and a fingerprint, into a Detector and finishes
// it: the work and memory of detecting a 10,000-page crawl's issues.
func BenchmarkDetector10k(b *testing.B) {
	const n = 10_000
	pages := make([]crawl.Page, n)
	for i := range pages {
		p := page(fmt.Sprintf("/p%d", i), i%7, nil...)
		for j := range 50 {
			p.Outlinks = append(p.Outlinks, fmt.Sprintf("%s/p%d", site, (i*31+j*97)%(n+100))) // some targets were never crawled
		}
		p.Title = fmt.Sprintf("Title %d", i%5000)        // pairs of duplicates
		p.Description = fmt.Sprintf("Description %d", i) // unique
		p.Fingerprint = crawl.Fingerprint(words(fmt.Sprintf("t%d_", i%3000), 60, nil))
		p.InSitemap = i%3 == 0
		pages[i] = p
	}
	b.ReportAllocs()
	for b.Loop() {
		if issues := detect(crawl.Site{StartURL: site + "/p0"}, pages); len(issues) == 0 {
			b.Fatal("no issues")
		}
	}
}
