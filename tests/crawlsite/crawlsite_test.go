package crawlsite_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/tests/crawlsite"
)

// TestReferenceCrawl crawls the fixture with the reference crawler, feeds
// domain/crawl's Detector, and checks that it finds exactly the planted
// issues (type, URL and robots.txt line), and the records Stats promises.
func TestReferenceCrawl(t *testing.T) {
	sizes := []int{0, 2000}
	if !testing.Short() {
		sizes = append(sizes, crawl.MaxMaxPages)
	}
	for _, pages := range sizes {
		t.Run(fmt.Sprint(pages), func(t *testing.T) {
			site := crawlsite.New(crawlsite.Options{Pages: pages})
			if want := max(pages, crawlsite.MinPages()); site.Pages() != want {
				t.Fatalf("Pages() = %d, want %d", site.Pages(), want)
			}
			srv := httptest.NewServer(site)
			defer srv.Close()
			c := newRefCrawler(t, srv.URL)
			records := c.crawl()

			d := crawl.NewDetector(crawl.Site{StartURL: srv.URL + crawlsite.StartPath, RobotsURL: srv.URL + "/robots.txt", RobotsTxt: c.robots})
			for _, p := range records {
				d.Add(p)
			}
			var got []string
			for _, is := range d.Finish() {
				got = append(got, issueKey(is.Type, strings.TrimPrefix(is.URL, srv.URL), is.Line))
			}
			var want []string
			for _, p := range site.Issues() {
				want = append(want, issueKey(p.Type, p.Path, p.Line))
			}
			if !slices.Equal(got, want) {
				t.Errorf("issues differ:\n  found, not planted: %v\n  planted, not found: %v", minus(got, want), minus(want, got))
			}

			var st crawlsite.Stats
			for _, p := range records {
				st.Records++
				switch {
				case p.BlockedByRobots:
					st.Blocked++
				case p.Landed():
					st.Landed++
					st.MaxDepth = max(st.MaxDepth, p.Depth)
				case p.Broken():
					st.Errors++
				case len(p.Redirects) > 0:
					st.Redirected++
				default:
					t.Errorf("%s: a record of no kind: %+v", p.URL, p)
				}
			}
			st.SitemapURLs = len(c.inMap)
			if want := site.Stats(); st != want || st.Records != site.Pages() {
				t.Errorf("stats = %+v\nwant    %+v, %d records", st, want, site.Pages())
			}
			if f := c.sitemapFiles; f["sitemapindex"] != 1 || f["gzip"] < 1 || f["urlset"] != 2+f["gzip"] {
				t.Errorf("sitemaps read: %v, want an index and gzipped sitemaps", c.sitemapFiles)
			}
		})
	}
}

func issueKey(t crawl.IssueType, path string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s %s:%d", t, path, line)
	}
	return string(t) + " " + path
}

// minus is what a has and b has not.
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestExpected: every catalogue type is planted, each a different number
// of times, and Expected agrees with Issues.
func TestExpected(t *testing.T) {
	site := crawlsite.New(crawlsite.Options{})
	exp := site.Expected()
	counts := map[int]string{}
	for _, def := range crawl.Catalogue {
		n := exp[string(def.Type)]
		if n == 0 {
			t.Errorf("%s is not planted", def.Type)
		}
		if other, dup := counts[n]; dup {
			t.Errorf("%s and %s are both planted %d times", def.Type, other, n)
		}
		counts[n] = string(def.Type)
	}
	if len(exp) != len(crawl.Catalogue) {
		t.Errorf("Expected has %d types, the catalogue %d", len(exp), len(crawl.Catalogue))
	}
	total := 0
	for _, n := range exp {
		total += n
	}
	if total != len(site.Issues()) {
		t.Errorf("Expected counts %d issues, Issues lists %d", total, len(site.Issues()))
	}
}

// TestAIAccess: robots.txt lets in exactly the AI crawlers AIAccess says,
// as crawl.AIReadiness reads it.
func TestAIAccess(t *testing.T) {
	site := crawlsite.New(crawlsite.Options{})
	srv := httptest.NewServer(site)
	defer srv.Close()
	body, status, err := newRefCrawler(t, srv.URL).get(srv.URL + "/robots.txt")
	if err != nil || status != 200 {
		t.Fatal(status, err)
	}
	want := site.AIAccess()
	blocked := 0
	for _, a := range crawl.AIReadiness(robots.Parse(body), srv.URL+crawlsite.StartPath) {
		if a.Allowed != want[a.Token] {
			t.Errorf("%s: allowed = %v (group %q, rule %q), want %v", a.Token, a.Allowed, a.Group, a.Rule, want[a.Token])
		}
		if !a.Allowed {
			blocked++
		}
	}
	if blocked != len(site.AIBlocked()) || blocked == 0 || blocked == len(crawl.AIAgents) {
		t.Errorf("%d agents blocked, want %d (some, not all)", blocked, len(site.AIBlocked()))
	}
}

// TestLLMsTxt: /llms.txt is well formed.
func TestLLMsTxt(t *testing.T) {
	srv := httptest.NewServer(crawlsite.New(crawlsite.Options{}))
	defer srv.Close()
	body, status, err := newRefCrawler(t, srv.URL).get(srv.URL + "/llms.txt")
	if err != nil || status != 200 {
		t.Fatal(status, err)
	}
	if f := crawl.CheckLLMsTxt(body); len(f) > 0 {
		t.Errorf("llms.txt findings: %+v", f)
	}
}

// TestLatency: with a latency, a request that gives up stops the wait
// (httptest.Server.Close waits for every handler to return).
func TestLatency(t *testing.T) {
	srv := httptest.NewServer(crawlsite.New(crawlsite.Options{Latency: time.Hour}))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/", nil)
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	srv.Close()
}

// TestMethods: other methods than GET and HEAD get 405.
func TestMethods(t *testing.T) {
	srv := httptest.NewServer(crawlsite.New(crawlsite.Options{}))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405", resp.StatusCode)
	}
}
