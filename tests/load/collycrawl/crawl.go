package main

import (
	"net/http"
	"net/url"
	"regexp"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"
)

// Result is what one crawl did.
type Result struct {
	Pages   int64 // responses received, any status (redirects followed count once)
	Errors  int64 // requests that got no response: transport errors, redirect loops, redirects to a visited URL
	Elapsed time.Duration
}

// PagesPerSecond is the crawl rate.
func (r Result) PagesPerSecond() float64 { return float64(r.Pages) / r.Elapsed.Seconds() }

// Crawl crawls the site of start with colly: every a[href] on the same
// scheme, host and port is visited once, with at most parallel requests
// in flight; robots.txt is ignored (colly's default) and nothing but the
// links is read. idle is the transport's idle connections per host; 0
// keeps colly's default client (net/http's default transport, which keeps
// 2).
func Crawl(start string, parallel, idle int) (Result, error) {
	u, err := url.Parse(start)
	if err != nil {
		return Result{}, err
	}
	origin := u.Scheme + "://" + u.Host
	c := colly.NewCollector(
		colly.Async(true),
		colly.AllowedDomains(u.Hostname()),
		colly.URLFilters(regexp.MustCompile("^"+regexp.QuoteMeta(origin)+"(/|$)")),
		colly.ParseHTTPErrorResponse(),
	)
	if idle > 0 {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = idle
		c.WithTransport(t)
	}
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: parallel}); err != nil {
		return Result{}, err
	}
	var res Result
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		// colly tells URLs apart by their fragment: drop it, so that no
		// page is fetched twice. Visited, off-site and unparsable links
		// are refused.
		if l, err := url.Parse(e.Request.AbsoluteURL(e.Attr("href"))); err == nil {
			l.Fragment, l.RawFragment = "", ""
			_ = e.Request.Visit(l.String())
		}
	})
	c.OnResponse(func(*colly.Response) { atomic.AddInt64(&res.Pages, 1) })
	c.OnError(func(r *colly.Response, _ error) {
		if r.StatusCode == 0 {
			atomic.AddInt64(&res.Errors, 1)
		}
	})
	began := time.Now()
	if err := c.Visit(start); err != nil {
		return res, err
	}
	c.Wait()
	res.Elapsed = time.Since(began)
	return res, nil
}
