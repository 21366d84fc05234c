package tests

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"
)

// haproxyConfig is the deploy/ load balancer's configuration file.
const haproxyConfig = "../deploy/images/haproxy/haproxy.cfg"

// lbRules are the health-check and retry rules of deploy/'s HAProxy, read
// from its configuration, so the stand-in follows what deploy/ runs.
type lbRules struct {
	checkPath       string        // http-check send meth GET uri
	inter           time.Duration // default-server inter: between checks, and a check's timeout
	fall, rise      int           // failed / passed checks in a row that take a server out / in
	retries         int           // connection retries on another server (option redispatch)
	noServer        []byte        // errorfile 503: the raw answer when no server is up
	noServerHeaders http.Header
}

// readLBRules parses the rules of deploy/'s haproxy.cfg that the stand-in
// applies, failing the test when one is missing.
func readLBRules(t *testing.T) lbRules {
	t.Helper()
	cfg, err := os.ReadFile(haproxyConfig)
	if err != nil {
		t.Fatal(err)
	}
	find := func(re string) []string {
		m := regexp.MustCompile(`(?m)^\s*` + re).FindSubmatch(cfg)
		if m == nil {
			t.Fatalf("%s has no line matching %q", haproxyConfig, re)
		}
		out := make([]string, len(m)-1)
		for i, b := range m[1:] {
			out[i] = string(b)
		}
		return out
	}
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	var r lbRules
	r.checkPath = find(`http-check send meth GET uri (\S+)`)[0]
	d := find(`default-server check inter (\d+)s fall (\d+) rise (\d+)`)
	r.inter, r.fall, r.rise = time.Duration(atoi(d[0]))*time.Second, atoi(d[1]), atoi(d[2])
	r.retries = atoi(find(`retries (\d+)`)[0])
	find(`option redispatch`)
	file := find(`errorfile 503 (\S+)`)[0]
	r.noServer, err = os.ReadFile(filepath.Join(filepath.Dir(haproxyConfig), filepath.Base(file)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.noServer)), nil)
	if err != nil || resp.StatusCode != 503 {
		t.Fatalf("errorfile 503 %s is not a 503 answer: %v", file, err)
	}
	r.noServerHeaders = resp.Header
	return r
}

// lbStandIn is a Go load balancer with the rules of deploy/'s HAProxy
// (health checks, least connections, redispatch of a failed connection,
// its own 503): the suite cannot pull the HAProxy image, and building one
// takes minutes, so it runs this instead of it.
type lbStandIn struct {
	rules   lbRules
	client  *http.Client
	mu      sync.Mutex
	servers []*lbServer
}

// lbServer is one instance behind the load balancer.
type lbServer struct {
	base          string
	up            bool
	passes, fails int // checks in a row
	inflight      int
}

// newLBStandIn checks every base by the rules until the test ends, and
// returns the balancer; every server starts up (the instances were ready).
func newLBStandIn(t *testing.T, rules lbRules, bases ...string) *lbStandIn {
	lb := &lbStandIn{rules: rules, client: &http.Client{
		Timeout:       75 * time.Second, // timeout server
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for _, b := range bases {
		s := &lbServer{base: b, up: true}
		lb.servers = append(lb.servers, s)
		go lb.check(ctx, s)
	}
	return lb
}

// check runs s's health check every inter, each within inter.
func (lb *lbStandIn) check(ctx context.Context, s *lbServer) {
	client := http.Client{Timeout: lb.rules.inter}
	tick := time.NewTicker(lb.rules.inter)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		ok := false
		if resp, err := client.Get(s.base + lb.rules.checkPath); err == nil {
			ok = resp.StatusCode == 200
			resp.Body.Close()
		}
		lb.mu.Lock()
		switch {
		case ok:
			s.passes, s.fails = s.passes+1, 0
			if !s.up && s.passes >= lb.rules.rise {
				s.up = true
			}
		default:
			s.fails, s.passes = s.fails+1, 0
			if s.up && s.fails >= lb.rules.fall {
				s.up = false
			}
		}
		lb.mu.Unlock()
	}
}

// pick returns the up server with the fewest requests in flight, not in
// tried, and counts a request on it; nil when none is left.
func (lb *lbStandIn) pick(tried map[*lbServer]bool) *lbServer {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	var best *lbServer
	for _, s := range lb.servers {
		if s.up && !tried[s] && (best == nil || s.inflight < best.inflight) {
			best = s
		}
	}
	if best != nil {
		best.inflight++
	}
	return best
}

func (lb *lbStandIn) done(s *lbServer) {
	lb.mu.Lock()
	s.inflight--
	lb.mu.Unlock()
}

// ServeHTTP forwards r to an up server, retrying a failed connection on
// another up to retries times, and answers the errorfile when none is up.
func (lb *lbStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	tried := map[*lbServer]bool{}
	for attempt := 0; attempt <= lb.rules.retries; attempt++ {
		s := lb.pick(tried)
		if s == nil {
			break
		}
		tried[s] = true
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, s.base+r.URL.RequestURI(), bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := lb.client.Do(req)
		lb.done(s)
		if err != nil {
			continue
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		resp.Body.Close()
		return
	}
	for k, v := range lb.rules.noServerHeaders {
		w.Header()[k] = v
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write(lb.rules.noServer[bytes.Index(lb.rules.noServer, []byte("\r\n\r\n"))+4:])
}
