package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// BenchmarkRender renders a small loopback page (a stylesheet, an image,
// a script) on a warm browser, one render at a time; it reports the
// median, as ms/page, and logs the median of each step of a render.
func BenchmarkRender(b *testing.B) {
	fx := newFixtures(b)
	r := newTestRenderer(b, Config{}, fx.host())
	tr := traceSteps(r)
	ctx := context.Background()
	if _, err := r.Render(ctx, fx.url("/bench.html"), ports.RenderOptions{}, nil); err != nil { // warm up
		b.Fatal(err)
	}
	tr.reset()
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		got, err := r.Render(ctx, fx.url("/bench.html"), ports.RenderOptions{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if !got.Settled {
			b.Fatal("the benchmark page did not settle")
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(median(took), "ms/page")
	tr.log(b)
}

// spaPages is the size of the crawl benchmark's site.
const spaPages = 200

// BenchmarkRenderThroughput renders the pages of a 200-page loopback
// single-page application (each /p/N a shell whose script fetches its
// JSON and builds the title, canonical, text and links to a few other
// pages) as a crawl does: two renders at once over the pool of two
// contexts, no screenshots, b.N pages in all (-benchtime 200x renders the site once). It
// reports the pages rendered a second, the median wall time of a render,
// and the peak of the browser's process tree, as the sum of the resident
// sets (rss-MB) and as the proportional set size the memory cap reads
// (pss-MB).
func BenchmarkRenderThroughput(b *testing.B) {
	site := newSPASite(b)
	r := newTestRenderer(b, Config{Contexts: 2}, site.host())
	tr := traceSteps(r)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 2 { // warm up: the browser and both slots
		wg.Go(func() {
			if _, err := r.Render(ctx, site.page(spaPages-1-i), ports.RenderOptions{NoScreenshot: true}, nil); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		return
	}
	tr.reset()
	peak := watchPeak(r)
	cpu0 := cpuTime(r)
	var next atomic.Int64
	var mu sync.Mutex
	var took []time.Duration
	b.ResetTimer()
	start := time.Now()
	for range 2 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= b.N {
					return
				}
				n := i % spaPages
				t0 := time.Now()
				got, err := r.Render(ctx, site.page(n), ports.RenderOptions{NoScreenshot: true}, nil)
				d := time.Since(t0)
				if err != nil {
					b.Error(err)
					return
				}
				if err := site.check(n, got.Document, got.Settled); err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				took = append(took, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	rss, pss := peak()
	spent, cpu := cpuSpent(cpu0, cpuTime(r))
	if b.Failed() {
		return
	}
	logCPU(b, spent, b.N)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "pages/s")
	b.ReportMetric(median(took), "ms/page")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/page")
	b.ReportMetric(float64(rss>>20), "rss-MB")
	b.ReportMetric(float64(pss>>20), "pss-MB")
	tr.log(b)
}

// spaSite serves the crawl benchmark's application: /p/N (the shell),
// /crawl.js (its script) and /api/p/N.json (its data).
type spaSite struct {
	srv *httptest.Server
}

func newSPASite(t testing.TB) *spaSite {
	t.Helper()
	script, err := os.ReadFile("testdata/crawl.js")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/p/{n}", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := spaPage(r.PathValue("n")); !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading…</title>`+
			`<script src="/crawl.js" defer></script></head><body><div id="app">Loading…</div></body></html>`)
	})
	mux.HandleFunc("/crawl.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Write(script)
	})
	mux.HandleFunc("/api/p/{file}", func(w http.ResponseWriter, r *http.Request) {
		n, ok := spaPage(strings.TrimSuffix(r.PathValue("file"), ".json"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"n": n, "title": spaTitle(n),
			"description": "Page " + strconv.Itoa(n) + " of the benchmark's application.",
			"text":        strings.Repeat("Text of page "+strconv.Itoa(n)+" that only its script shows. ", 20),
			"links":       spaLinks(n)})
	})
	s := &spaSite{srv: httptest.NewServer(mux)}
	t.Cleanup(s.srv.Close)
	return s
}

func spaPage(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0 && n < spaPages && strconv.Itoa(n) == s
}

func spaTitle(n int) string { return "SPA page " + strconv.Itoa(n) }

// spaLinks are the pages page n links to: the next one (so a crawl from
// /p/0 finds them all) and a few others.
func spaLinks(n int) []int {
	return []int{(n + 1) % spaPages, (n * 7) % spaPages, (n + 50) % spaPages, (n*13 + 5) % spaPages}
}

func (s *spaSite) host() string      { return strings.TrimPrefix(s.srv.URL, "http://") }
func (s *spaSite) page(n int) string { return s.srv.URL + "/p/" + strconv.Itoa(n) }

// check reports whether a render of page n shows what its script builds.
func (s *spaSite) check(n int, doc *webpage.Node, settled bool) error {
	if !settled {
		return fmt.Errorf("page %d did not settle", n)
	}
	if title := textOf(find(doc, "title")); title != spaTitle(n) {
		return fmt.Errorf("page %d: title %q, want the script's", n, title)
	}
	var hrefs []string
	for _, a := range all(doc, "a") {
		hrefs = append(hrefs, attr(a, "href"))
	}
	var want []string
	for _, l := range spaLinks(n) {
		want = append(want, "/p/"+strconv.Itoa(l))
	}
	if !slices.Equal(hrefs, want) {
		return fmt.Errorf("page %d: links %v, want %v", n, hrefs, want)
	}
	return nil
}

// watchPeak samples the browser's process tree until the returned func is
// called, which answers the peaks, in bytes, of the sum of its processes'
// resident sets (read every 50 ms) and of their proportional set sizes
// (every 250 ms, as reading them costs some 30 ms of kernel time).
func watchPeak(r *Renderer) func() (rss, pss int64) {
	r.mu.Lock()
	root := r.b.pid
	r.mu.Unlock()
	stop := make(chan struct{})
	done := make(chan struct{})
	var maxRSS, maxPSS int64
	go func() {
		defer close(done)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			var rss, pss int64
			for _, pid := range descendants(root) {
				rss += residentSet(pid)
				if i%5 == 0 {
					pss += processMemory(pid)
				}
			}
			maxRSS, maxPSS = max(maxRSS, rss), max(maxPSS, pss)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() (int64, int64) {
		close(stop)
		<-done
		return maxRSS, maxPSS
	}
}

// cpuTime is the processor time used so far by this process (the test,
// its servers, the renderer and its proxies), as "self", and by the
// browser's process tree by the kind of process (Chromium's --type:
// "browser" for the one without, renderer, gpu-process, utility,
// zygote), each with its reaped children: unlike the wall time, it
// hardly depends on what else the machine runs.
func cpuTime(r *Renderer) map[string]time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	out := map[string]time.Duration{"self": time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
	r.mu.Lock()
	root := r.b.pid
	r.mu.Unlock()
	for _, pid := range descendants(root) {
		f, ok := statFields(pid) // f[0] is the state, field 3 of proc(5)
		if !ok || len(f) < 15 {
			continue
		}
		kind := processType(pid)
		for _, v := range f[11:15] { // utime, stime, cutime, cstime
			ticks, _ := strconv.ParseInt(v, 10, 64)
			out[kind] += time.Duration(ticks) * time.Second / 100 // USER_HZ
		}
	}
	return out
}

// processType is the --type= argument of pid's command line, "browser"
// when it has none.
func processType(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	// Chromium rewrites its children's command lines, spaces between.
	for _, a := range bytes.Fields(bytes.ReplaceAll(b, []byte{0}, []byte{' '})) {
		if t, ok := bytes.CutPrefix(a, []byte("--type=")); ok {
			return string(t)
		}
	}
	return "browser"
}

// cpuSpent is what each kind of process used between two cpuTime
// readings, and their total.
func cpuSpent(before, after map[string]time.Duration) (map[string]time.Duration, time.Duration) {
	out := map[string]time.Duration{}
	var total time.Duration
	for k, v := range after {
		out[k] = max(0, v-before[k]) // a process gone since is not in after
		total += out[k]
	}
	return out, total
}

// logCPU logs the processor time of each kind of process a page.
func logCPU(b *testing.B, spent map[string]time.Duration, pages int) {
	kinds := slices.Sorted(maps.Keys(spent))
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, spent[k].Milliseconds()/int64(max(pages, 1))))
	}
	b.Logf("cpu-ms/page by process: %s", strings.Join(parts, ", "))
}

// stepTrace gathers the steps of the renders of a renderer.
type stepTrace struct {
	mu    sync.Mutex
	order []string
	steps map[string][]time.Duration
}

func traceSteps(r *Renderer) *stepTrace {
	tr := &stepTrace{steps: map[string][]time.Duration{}}
	r.traced = func(phases []phase) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		for _, p := range phases {
			if _, ok := tr.steps[p.name]; !ok {
				tr.order = append(tr.order, p.name)
			}
			tr.steps[p.name] = append(tr.steps[p.name], p.took)
		}
	}
	return tr
}

func (tr *stepTrace) reset() {
	tr.mu.Lock()
	tr.order, tr.steps = nil, map[string][]time.Duration{}
	tr.mu.Unlock()
}

// log logs the median of each step, in the order they first came.
func (tr *stepTrace) log(b *testing.B) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var line strings.Builder
	for _, name := range tr.order {
		fmt.Fprintf(&line, " %s %.0f", name, median(tr.steps[name]))
	}
	b.Logf("median ms of each step (n=%d):%s", len(tr.steps[tr.order[0]]), line.String())
}

// median is the median of took, in milliseconds.
func median(took []time.Duration) float64 {
	if len(took) == 0 {
		return 0
	}
	took = slices.Clone(took)
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	return float64(took[len(took)/2].Microseconds()) / 1000
}
