package crawls_test

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/render"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

// spaPages is the size of the rendered-crawl benchmark's site.
const spaPages = 200

// spaShell is every page of the benchmark's single-page application: its
// script (spaScript) writes the title, the text and the links.
const spaShell = `<!doctype html><html lang="en"><head><title>Loading</title><script src="/app.js" defer></script></head>` +
	`<body><div id="root"></div><noscript>Enable JavaScript.</noscript></body></html>`

// spaScript builds page /p/N: a heading, text, and links to /p/2N+1 and
// /p/2N+2 (a binary tree over the site's pages) and back to /p/0.
var spaScript = `const n = Number(location.pathname.split("/")[2] || 0);
document.title = "Product " + n + " | Shop";
const links = [2*n+1, 2*n+2].filter(i => i < ` + strconv.Itoa(spaPages) + `).map(i => '<a href="/p/' + i + '">Product ' + i + '</a>').join(" ");
document.getElementById("root").innerHTML = "<h1>Product " + n + "</h1><p>" +
  "A product described at length so the page has real text to audit. ".repeat(12) + "</p>" + links + ' <a href="/p/0">Home</a>';
`

// BenchmarkRenderedCrawl crawls a 200-page loopback single-page
// application with render on, 2 browser contexts and concurrency 2, into
// a SQLite file, with Debian's Chromium (skipped without it), and reports
// pages/s and the peak memory of the browser's processes (every
// descendant of this process, sampled every 100 ms): their resident sets
// summed (which counts the pages they share once per process) and their
// proportional set sizes summed (shared pages split among them: what the
// renderer's memory cap measures). Targets (issue 39): at least 4
// pages/s, at most 400 MB of RSS.
//
//	go test ./app/crawls -run '^$' -bench RenderedCrawl -benchtime 1x
func BenchmarkRenderedCrawl(b *testing.B) {
	srv := fixturecrawl.Serve(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			_, _ = w.Write([]byte(spaScript))
		case r.URL.Path == "/p/0" || strings.HasPrefix(r.URL.Path, "/p/"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(spaShell))
		default:
			http.NotFound(w, r)
		}
	}))
	f, err := fetch.New(fetch.Config{AllowTargets: []string{strings.TrimPrefix(srv.URL, "http://")}, Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	rd, err := render.New(render.Config{Contexts: 2}, f)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = rd.Close() })
	if err := rd.Available(); err != nil {
		b.Skip("no chromium: ", err)
	}
	var pages int
	var took time.Duration
	var peak, peakPSS int64
	for b.Loop() {
		b.StopTimer()
		e := sqliteEnv(b)
		maxPages, concurrency, mode := spaPages, 2, "on"
		s, err := crawl.NewSettings(crawl.Params{URL: srv.URL + "/p/0", MaxPages: &maxPages, Concurrency: &concurrency, Render: &mode})
		if err != nil {
			b.Fatal(err)
		}
		c, jobID, err := e.Queue.CreateCrawlWithJob(b.Context(), crawl.Crawl{UserID: e.UserID, Site: "127.0.0.1", Settings: s, CreatedAt: time.Now()}, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs := fixturecrawl.New(b, e, srv, crawls.Config{Renderer: rd})
		stop := make(chan struct{})
		var sampled sync.WaitGroup
		sampled.Go(func() {
			for {
				rss, pss := descendantsMemory()
				peak, peakPSS = max(peak, rss), max(peakPSS, pss)
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		})
		b.StartTimer()
		began := time.Now()
		fixturecrawl.RunToEnd(b, cs, ports.CrawlJob{ID: jobID, CrawlID: c.ID, UserID: e.UserID, Attempt: 1})
		took += time.Since(began)
		b.StopTimer()
		close(stop)
		sampled.Wait()
		done, err := e.Store.CrawlByID(b.Context(), c.ID)
		if err != nil || done.Progress.Crawled != spaPages {
			b.Fatalf("crawl ended with %+v, %v; want %d pages", done.Progress, err, spaPages)
		}
		rendered := 0
		for _, r := range done.Summary.Rendering {
			if r.Rendered {
				rendered += r.Pages
			}
		}
		if rendered != spaPages {
			b.Fatalf("%d pages rendered (%+v), want %d", rendered, done.Summary.Rendering, spaPages)
		}
		pages += done.Progress.Crawled
		b.StartTimer()
	}
	b.ReportMetric(float64(pages)/took.Seconds(), "pages/s")
	b.ReportMetric(float64(peak)/(1<<20), "browser-rss-MB")
	b.ReportMetric(float64(peakPSS)/(1<<20), "browser-pss-MB")
}

// descendantsMemory sums the resident set and the proportional set size
// of this process's descendants (Linux /proc; 0 elsewhere).
func descendantsMemory() (rss, pss int64) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	parent := map[int]int{}
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		b, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		var state string
		var ppid int
		if _, err := fmt.Sscan(s[i+1:], &state, &ppid); err == nil {
			parent[pid] = ppid
		}
	}
	self := os.Getpid()
	for pid := range parent {
		p, ok := parent[pid], false
		for p != 0 && !ok {
			ok = p == self
			p = parent[p]
		}
		if !ok {
			continue
		}
		rss += kiBField("/proc/"+strconv.Itoa(pid)+"/status", "VmRSS:")
		pss += kiBField("/proc/"+strconv.Itoa(pid)+"/smaps_rollup", "Pss:")
	}
	return rss, pss
}

// kiBField reads a "Name: N kB" line of a /proc file, in bytes (0 when
// the process is gone).
func kiBField(path, name string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
