package crawls_test

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/tests/crawlsite"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

// BenchmarkCrawl crawls the 2,000-page fixture site with concurrency 8
// into a SQLite file (a new one each time), as a job's runs would, and
// reports pages/s: the figure compared with the colly yardstick
// (tests/load/collycrawl) in tests/load/README.md. cpu-ms/crawl is the
// processor time the process spent per crawl (the fixture site's serving
// included, as in the yardstick's figure).
//
//	go test ./app/crawls -run '^$' -bench 'Crawl$' -benchtime 5x
func BenchmarkCrawl(b *testing.B) {
	site := crawlsite.New(crawlsite.Options{Pages: fixturecrawl.Pages})
	srv := fixturecrawl.Serve(b, site)
	var pages int
	var took time.Duration
	var cpu int64
	for b.Loop() {
		b.StopTimer()
		e := sqliteEnv(b)
		c, job := fixturecrawl.Create(b, e, srv.URL, 8)
		cs := fixturecrawl.New(b, e, srv, crawls.Config{})
		b.StartTimer()
		began, cpu0 := time.Now(), cpuNanos()
		fixturecrawl.RunToEnd(b, cs, job)
		took += time.Since(began)
		cpu += cpuNanos() - cpu0
		b.StopTimer()
		done, err := e.Store.CrawlByID(b.Context(), c.ID)
		if err != nil || done.Progress.Crawled+done.Progress.Blocked != site.Pages() {
			b.Fatalf("crawl ended with %+v, %v; want %d records", done.Progress, err, site.Pages())
		}
		pages += done.Progress.Crawled
		b.StartTimer()
	}
	b.ReportMetric(float64(pages)/took.Seconds(), "pages/s")
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/crawl")
}

// BenchmarkCrawlMemory crawls a 10,000-page fixture site into a SQLite
// file and reports how much the crawl raised the process's memory: the
// peak of the Go heap in use and of the resident set (Linux), above what
// they were before it started, sampled every 20 ms. The fixture site is
// served by the same process.
//
//	go test ./app/crawls -run '^$' -bench CrawlMemory -benchtime 1x
func BenchmarkCrawlMemory(b *testing.B) {
	site := crawlsite.New(crawlsite.Options{Pages: 10_000})
	srv := fixturecrawl.Serve(b, site)
	var heapMB, rssMB float64
	for b.Loop() {
		b.StopTimer()
		e := sqliteEnv(b)
		c, job := fixturecrawl.Create(b, e, srv.URL, 8)
		cs := fixturecrawl.New(b, e, srv, crawls.Config{})
		b.StartTimer()
		peak := measureMemory(func() { fixturecrawl.RunToEnd(b, cs, job) })
		b.StopTimer()
		done, err := e.Store.CrawlByID(b.Context(), c.ID)
		if err != nil || done.Progress.Crawled+done.Progress.Blocked != site.Pages() {
			b.Fatalf("crawl ended with %+v, %v; want %d records", done.Progress, err, site.Pages())
		}
		heapMB, rssMB = max(heapMB, peak.heapMB), max(rssMB, peak.rssMB)
		b.StartTimer()
	}
	b.ReportMetric(heapMB, "heap-MB")
	b.ReportMetric(rssMB, "rss-MB")
}

// rss is the process's resident set in bytes (0 where /proc is not).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// memoryPeak is how much a call raised the process's memory (MiB): the
// peak of the Go heap in use and of the resident set above what they were
// before it, and the bytes it allocated.
type memoryPeak struct{ heapMB, rssMB, allocMB float64 }

// measureMemory calls fn, sampling the heap and the resident set every
// 20 ms meanwhile.
func measureMemory(fn func()) memoryPeak {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap0, rss0, alloc0 := ms.HeapInuse, rss(), ms.TotalAlloc
	peakHeap, peakRSS := heap0, rss0
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peakHeap, peakRSS = max(peakHeap, ms.HeapInuse), max(peakRSS, rss())
		}
	}()
	fn()
	close(stop)
	<-sampled
	runtime.ReadMemStats(&ms)
	const mb = 1 << 20
	return memoryPeak{heapMB: float64(peakHeap-heap0) / mb, rssMB: float64(peakRSS-rss0) / mb, allocMB: float64(ms.TotalAlloc-alloc0) / mb}
}
