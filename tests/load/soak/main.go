// Command soak sends a fixed-rate mix of requests to a running Pinsight for
// a fixed time (open loop: a slow server does not slow the sender down, as
// with wrk2) and samples the server's resident memory. It prints the error
// count, latency percentiles and the RSS samples, and exits non-zero when
// any request failed.
//
//	go run ./tests/load/soak -base http://127.0.0.1:18080 -pid 1234 -pins pins.txt -points points.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// request is one request of the mix.
type request struct {
	name, method, path, body string
}

func main() {
	base := flag.String("base", "http://127.0.0.1:18080", "Pinsight's base URL (127.0.0.1 only)")
	rate := flag.Int("rate", 200, "requests per second")
	duration := flag.Duration("duration", 60*time.Second, "how long to send")
	sample := flag.Duration("sample", 5*time.Second, "RSS sampling period")
	pid := flag.Int("pid", 0, "server process id whose RSS is sampled (0: none)")
	pinsFile := flag.String("pins", "", "file of PIN codes, one per line")
	pointsFile := flag.String("points", "", "file of 'latitude longitude' lines")
	nearby := flag.Bool("nearby", false, "include /pincodes/nearby in the mix")
	flag.Parse()
	if !strings.HasPrefix(*base, "http://127.0.0.1:") || *rate <= 0 || *duration <= 0 {
		fail("need -base http://127.0.0.1:PORT, a positive -rate and -duration")
	}
	pins, points := lines(*pinsFile), lines(*pointsFile)
	if len(pins) == 0 || len(points) == 0 {
		fail("need -pins and -points files with content")
	}
	mix := buildMix(pins, points, *nearby)
	r := run(*base, mix, *rate, *duration, *sample, *pid)
	r.print(os.Stdout)
	if r.errors > 0 {
		os.Exit(1)
	}
}

// buildMix interleaves the endpoints: lookups, DIGIPIN encode and decode,
// search and (when present) nearby.
func buildMix(pins, points []string, nearby bool) []request {
	var mix []request
	for i := range max(len(pins), len(points)) {
		pin := pins[i%len(pins)]
		lat, lon, _ := strings.Cut(points[i%len(points)], " ")
		mix = append(mix,
			request{"pincode", http.MethodGet, "/api/v1/pincodes/" + pin, ""},
			request{"encode", http.MethodPost, "/api/v1/digipin/encode", `{"latitude":` + lat + `,"longitude":` + lon + `}`},
			request{"pincode", http.MethodGet, "/api/v1/pincodes/" + pin + "/details", ""},
			request{"search", http.MethodGet, "/api/v1/pincodes/search?q=" + pin[:3], ""},
			request{"decode", http.MethodPost, "/api/v1/digipin/decode", `{"digipin":"39J-49L-L8T4"}`},
		)
		if nearby {
			mix = append(mix, request{"nearby", http.MethodGet, "/api/v1/pincodes/nearby?latitude=" + lat + "&longitude=" + lon, ""})
		}
	}
	return mix
}

// result is what a soak run observed.
type result struct {
	mu        sync.Mutex
	sent      int // set at the end
	errors    int
	firstErrs []string
	latencies []time.Duration
	byName    map[string]int
	rss       []string
	elapsed   time.Duration
}

func (r *result) record(req request, d time.Duration, status int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.latencies = append(r.latencies, d)
	r.byName[req.name]++
	if err != nil || status >= 400 {
		r.errors++
		if len(r.firstErrs) < 5 {
			r.firstErrs = append(r.firstErrs, fmt.Sprintf("%s %s: status %d, %v", req.method, req.path, status, err))
		}
	}
}

// run sends mix in a loop at rate for duration, sampling RSS meanwhile,
// then waits (at most 10 s) for the requests in flight.
func run(base string, mix []request, rate int, duration, sample time.Duration, pid int) *result {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	r := &result{byName: map[string]int{}}
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	samples := time.NewTicker(sample)
	defer samples.Stop()
	start := time.Now()
	r.rss = append(r.rss, rss(pid, 0))
	deadline := time.After(duration)
	for sent := 0; ; {
		select {
		case <-deadline:
			r.sent = sent
			r.rss = append(r.rss, rss(pid, time.Since(start)))
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				r.record(request{name: "timeout"}, 0, 0, fmt.Errorf("requests still in flight 10 s after the end"))
			}
			r.elapsed = time.Since(start)
			return r
		case <-samples.C:
			r.rss = append(r.rss, rss(pid, time.Since(start)))
		case <-tick.C:
			// Send what is due by now: a late tick (a busy machine drops
			// ticks) catches up, so the rate holds on average.
			due := int(time.Since(start).Seconds() * float64(rate))
			for ; sent < due; sent++ {
				req := mix[sent%len(mix)]
				wg.Go(func() {
					t0 := time.Now()
					status, err := send(client, base, req)
					r.record(req, time.Since(t0), status, err)
				})
			}
		}
	}
}

func send(client *http.Client, base string, req request) (int, error) {
	var body io.Reader
	if req.body != "" {
		body = strings.NewReader(req.body)
	}
	hr, err := http.NewRequest(req.method, base+req.path, body)
	if err != nil {
		return 0, err
	}
	if req.body != "" {
		hr.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(hr)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// rss reads the resident set size of pid from /proc.
func rss(pid int, at time.Duration) string {
	if pid == 0 {
		return ""
	}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return fmt.Sprintf("t=%2.0fs rss=? (%v)", at.Seconds(), err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return fmt.Sprintf("t=%2.0fs rss=%s", at.Seconds(), strings.TrimSpace(v))
		}
	}
	return fmt.Sprintf("t=%2.0fs rss=?", at.Seconds())
}

func (r *result) print(w io.Writer) {
	slices.Sort(r.latencies)
	pct := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
	}
	fmt.Fprintf(w, "soak: %d requests in %s (%.1f req/s), errors %d\n", r.sent, r.elapsed.Round(time.Millisecond), float64(r.sent)/r.elapsed.Seconds(), r.errors)
	fmt.Fprintf(w, "soak: latency p50 %s p99 %s max %s\n", pct(0.50), pct(0.99), pct(1))
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(w, "soak: %-8s %d\n", n, r.byName[n])
	}
	for _, e := range r.firstErrs {
		fmt.Fprintln(w, "soak: error:", e)
	}
	for _, s := range r.rss {
		if s != "" {
			fmt.Fprintln(w, "soak: server", s)
		}
	}
}

func lines(path string) []string {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		fail(err.Error())
	}
	var out []string
	for l := range strings.Lines(string(b)) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "soak:", msg)
	os.Exit(2)
}
