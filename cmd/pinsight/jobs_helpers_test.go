package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fixtureSite is a local site to analyse: /fast answers at once, /slow
// after delay, /flaky resets the connection on its first request and
// answers afterwards; every other path is 404.
type fixtureSite struct {
	*httptest.Server
	delay time.Duration
	mu    sync.Mutex
	flaky int // requests of /flaky so far
	// bare serves /fast without its title and description from now on.
	bare atomic.Bool
}

const fixturePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fixture page for Pinsight</title>` +
	`<meta name="description" content="A page served by the test suite."></head><body><h1>Fixture</h1><p>Hello.</p></body></html>`

func newFixtureSite(t testing.TB, delay time.Duration) *fixtureSite {
	t.Helper()
	f := &fixtureSite{delay: delay}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fixtureSite) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/fast":
	case "/slow":
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	case "/flaky":
		f.mu.Lock()
		f.flaky++
		first := f.flaky == 1
		f.mu.Unlock()
		if first {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				if tcp, ok := conn.(*net.TCPConn); ok {
					_ = tcp.SetLinger(0) // RST, not FIN
				}
				conn.Close()
			}
			return
		}
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if f.bare.Load() {
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><p>Bare.</p></body></html>`)
		return
	}
	_, _ = io.WriteString(w, fixturePage)
}

// apiClient calls a running server's API with a user's key.
type apiClient struct {
	t     *testing.T
	base  string // http://host:port
	token string
}

// reportJSON is the part of a report the job tests read.
type reportJSON struct {
	ID       int64  `json:"id"`
	URL      string `json:"url"`
	Status   string `json:"status"`
	Attempts int    `json:"attempts"`
	Failure  string `json:"failure"`
	Score    int    `json:"score"`
	Result   string `json:"result"`
	ShareURL string `json:"share_url"`
}

// newUser registers an account on the server at base and logs in.
func newUser(t *testing.T, base, email string) *apiClient {
	t.Helper()
	c := &apiClient{t: t, base: base}
	creds := map[string]any{"email": email, "password": "correct horse battery staple"}
	if st, body := c.call(http.MethodPost, "/api/v1/register", creds, nil); st != http.StatusCreated {
		t.Fatalf("register = %d %s", st, body)
	}
	var tok struct {
		Data struct{ Token string } `json:"data"`
	}
	if st, body := c.call(http.MethodPost, "/api/v1/login", creds, &tok); st != http.StatusOK || tok.Data.Token == "" {
		t.Fatalf("login = %d %s", st, body)
	}
	c.token = tok.Data.Token
	return c
}

// call sends body as JSON and decodes the answer into out (when not nil).
func (c *apiClient) call(method, path string, body, out any) (int, string) {
	c.t.Helper()
	st, _, raw := c.callHeader(method, path, body, out)
	return st, raw
}

// callPatient is call, waiting out a 429 (its Retry-After, a second when
// it names none) and asking again, as a client does, for at most 2
// minutes: a test that polls meets the per-user request rate limit on a
// busy machine, and its next request must not fail for it.
func (c *apiClient) callPatient(method, path string, body, out any) (int, string) {
	c.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, h, raw := c.callHeader(method, path, body, out)
		if st != http.StatusTooManyRequests || time.Now().After(deadline) {
			return st, raw
		}
		wait := time.Second
		if s, err := strconv.Atoi(h.Get("Retry-After")); err == nil && s > 0 {
			wait = time.Duration(s) * time.Second
		}
		time.Sleep(wait)
	}
}

func (c *apiClient) callHeader(method, path string, body, out any) (int, http.Header, string) {
	c.t.Helper()
	return c.callHeaderWith(method, path, body, out)
}

// callHeaderWith is callHeader with extra request headers (name, value...).
func (c *apiClient) callHeaderWith(method, path string, body, out any, header ...string) (int, http.Header, string) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := (&http.Client{Timeout: 90 * time.Second}).Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if out != nil && len(raw) > 0 {
		_ = json.Unmarshal(raw, out)
	}
	return res.StatusCode, res.Header, string(raw)
}

// report GETs a report.
func (c *apiClient) report(path string) reportJSON {
	c.t.Helper()
	var env struct {
		Data reportJSON `json:"data"`
	}
	if st, raw := c.call(http.MethodGet, path, nil, &env); st != http.StatusOK {
		c.t.Fatalf("GET %s = %d %s", path, st, raw)
	}
	return env.Data
}

// waitFinished polls the report at path until its analysis finished.
func (c *apiClient) waitFinished(path string, patience time.Duration) reportJSON {
	c.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		r := c.report(path)
		if r.Status == "generated" || r.Status == "failed" {
			return r
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s still %s after %s: %+v", path, r.Status, patience, r)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// create POSTs a report for url with query (e.g. "?wait=0") and returns
// the status, the Location header and the report.
func (c *apiClient) create(url, query string) (int, string, reportJSON) {
	c.t.Helper()
	var env struct {
		Data reportJSON `json:"data"`
	}
	st, h, raw := c.callHeader(http.MethodPost, "/api/v1/reports"+query, map[string]any{"url": url}, &env)
	if st != http.StatusCreated && st != http.StatusAccepted && !strings.HasPrefix(raw, "{") {
		c.t.Fatalf("create %s = %d %s", url, st, raw)
	}
	return st, h.Get("Location"), env.Data
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
