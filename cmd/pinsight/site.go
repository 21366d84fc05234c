package main

import (
	"cmp"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/fetch/fetchfx"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// siteConfig configures the page analyser and the public report page.
type siteConfig struct {
	Fetch            fetch.Config
	Workers          int
	JobWorkers       int           // queued analyses run at once by this process; 0: Workers
	Sweep            time.Duration // how often due scheduled analyses are queued
	UserConcurrent   int           // 0: no cap
	UserDaily        int           // 0: no quota
	HostPerMinute    int           // per registrable domain; 0: no limit
	AddressPerMinute int           // 0: no limit
	CookieKey        string        // hex; empty: random at start
	CrawlWorkers     int           // crawls this process runs at once
	CrawlDailyPages  int           // pages one user's crawls may ask for a day; 0: no quota
	Render           renderConfig
}

// siteFlags adds the analyser and share-page flags of serve.
func siteFlags(f *pflag.FlagSet, c *siteConfig) {
	f.BoolVar(&c.Fetch.AllowPrivate, "allow-private-targets", false, "let the analyser fetch loopback, private and other internal addresses on any port (local testing only)")
	f.StringSliceVar(&c.Fetch.AllowTargets, "allow-target", nil, "exact host:port the analyser may fetch despite the SSRF guard (repeatable)")
	f.IntSliceVar(&c.Fetch.AllowPorts, "allow-port", nil, "ports the analyser may fetch on public addresses besides 80 and 443 (repeatable)")
	f.DurationVar(&c.Fetch.Timeout, "fetch-timeout", fetch.DefaultTimeout, "one deadline for the page, robots.txt and the 404 probe of an analysis")
	f.Int64Var(&c.Fetch.MaxBytes, "max-page-bytes", fetch.DefaultMaxBytes, "bytes of a page analysed; longer pages are analysed on their start")
	f.StringVar(&c.Fetch.UserAgent, "user-agent", fetch.DefaultUserAgent, "User-Agent of the analyser's requests")
	f.IntVar(&c.Workers, "analysis-workers", 4, "analyses running at once; beyond, a request's analysis is queued (202) and run when a slot frees")
	f.IntVar(&c.JobWorkers, "workers", 0, "queued analyses (jobs) this process runs at once (0: --analysis-workers); they share the --analysis-workers slots with requests' analyses")
	f.DurationVar(&c.Sweep, "schedule-sweep", ports.DefaultSweep, "how often scheduled (daily, weekly) re-analyses that are due are queued; one instance at a time does it")
	f.IntVar(&c.UserConcurrent, "user-concurrent-analyses", reports.DefaultUserConcurrent, "analyses one user may run at once, apart from --analysis-workers; beyond, queued (202) until one finishes (0: no cap)")
	f.IntVar(&c.UserDaily, "user-daily-analyses", reports.DefaultUserDaily.Requests, "analyses one user may start in 24 h, re-analyses included, whatever their API key, charged when accepted; beyond, 429 with Retry-After (0: no limit)")
	f.IntVar(&c.HostPerMinute, "host-analyses-per-minute", reports.DefaultHostLimit.Requests, "analyses of one target site (its registrable domain: example.com with its subdomains) per minute; beyond, queued (202) until allowed (0: no limit)")
	f.IntVar(&c.AddressPerMinute, "address-analyses-per-minute", reports.DefaultAddressLimit.Requests, "analyses reaching one resolved address per minute, whatever the site (keep it above --host-analyses-per-minute: CDNs serve many sites from one address); beyond, queued (202) until allowed (0: no limit)")
	f.IntVar(&c.CrawlWorkers, "crawl-workers", ports.DefaultCrawlWorkers, "crawls (whole-site audits) this process runs at once, apart from the analyses; a crawl's own concurrency bounds its requests")
	f.IntVar(&c.CrawlDailyPages, "crawl-daily-pages", crawls.DefaultDailyPages, "pages one user's crawls may ask for in 24 h (their max_pages, charged when a crawl is accepted); beyond, 429 with Retry-After (0: no quota)")
	renderFlags(f, &c.Render)
	f.StringVar(&c.CookieKey, "share-cookie-key", "", "hex key (32+ bytes) signing the report page's cookies (password, owner sign-in); empty: random at start")
}

// siteOptions supplies the analyser's configuration and the real fetcher.
func siteOptions(c siteConfig, writeTimeout time.Duration) (fx.Option, error) {
	if writeTimeout > 0 && c.Fetch.Timeout >= writeTimeout {
		return nil, fmt.Errorf("--fetch-timeout (%s) must stay below --write-timeout (%s)", c.Fetch.Timeout, writeTimeout)
	}
	var key []byte
	if c.CookieKey != "" {
		k, err := hex.DecodeString(c.CookieKey)
		if err != nil || len(k) < 32 {
			return nil, fmt.Errorf("--share-cookie-key must be at least 32 bytes in hex")
		}
		key = k
	}
	analyser := reports.AnalyserConfig{
		Workers:        c.Workers,
		UserConcurrent: c.UserConcurrent,
		UserDaily:      quota(c.UserDaily, 24*time.Hour),
		HostLimit:      quota(c.HostPerMinute, time.Minute),
		AddressLimit:   quota(c.AddressPerMinute, time.Minute),
	}
	if c.UserConcurrent <= 0 {
		analyser.UserConcurrent = -1 // no cap
	}
	rendering, renderDeadline, err := renderOptions(c.Render, &analyser)
	if err != nil {
		return nil, err
	}
	jobs := ports.JobSettings{RenderDeadline: renderDeadline, Workers: cmp.Or(c.JobWorkers, c.Workers), CrawlWorkers: c.CrawlWorkers, FetchDeadline: cmp.Or(c.Fetch.Timeout, fetch.DefaultTimeout), Sweep: c.Sweep}
	if writeTimeout > 5*time.Second {
		jobs.WaitCap = writeTimeout - 5*time.Second // the answer leaves before the write timeout
	}
	crawl := crawls.Config{DailyPages: c.CrawlDailyPages, UserAgent: cmp.Or(c.Fetch.UserAgent, fetch.DefaultUserAgent), Workers: c.CrawlWorkers}
	if c.CrawlDailyPages <= 0 {
		crawl.DailyPages = -1 // no quota
	}
	return fx.Options(
		fx.Supply(c.Fetch, analyser, sharepage.Options{CookieKey: key}, jobs, crawl),
		fetchfx.Module,
		rendering,
	), nil
}

// quota is n per window, or reports.NoLimit when n is not positive.
func quota(n int, window time.Duration) ratelimit.Limit {
	if n <= 0 {
		return reports.NoLimit
	}
	return ratelimit.Limit{Requests: n, Window: window}
}
