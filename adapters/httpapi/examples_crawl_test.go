package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// examplePages are the pages of the examples' crawled site, by path: the
// home page, a page missing its description and language, and a 404.
var examplePages = map[string]string{
	"/": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example Saris</title>` +
		`<meta name="description" content="Hand-woven saris from Varanasi, shipped across India.">` +
		`<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
		`<body><h1>Saris from Varanasi</h1><p>Silk and cotton saris woven by hand in Varanasi.</p>` +
		`<a href="/about">About us</a> <a href="/old-offers">Offers</a></body></html>`,
	"/about": `<!doctype html><html><head><title>About</title></head><body><h1>About us</h1>` +
		`<p>Three generations of weavers.</p><img src="/team.jpg"><a href="/">Home</a></body></html>`,
	"/old-offers": "",
}

// seedExampleCrawl stores a finished crawl of https://example.com/ for
// user, made of examplePages audited by the real checks (the examples'
// handler runs no crawl: its queue is never started), with issues; it
// returns the crawl's id.
func seedExampleCrawl(t *testing.T, store *memory.CrawlStore, user int64, at time.Time, issues []crawl.Issue) int64 {
	t.Helper()
	ctx := context.Background()
	s, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := store.CreateCrawl(ctx, crawl.Crawl{UserID: user, Site: "example.com", Settings: s, CreatedAt: at}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := store.ClaimSite(ctx, c.ID, "examples", at, at.Add(time.Hour)); err != nil || !ok {
		t.Fatalf("ClaimSite = %v, %v", ok, err)
	}
	var pages []ports.FetchedPage
	score, audited := 0, 0
	for depth, path := range []string{"/", "/about", "/old-offers"} {
		u := "https://example.com" + path
		p := ports.FetchedPage{Page: crawl.Page{URL: u, FinalURL: u, Status: 404, Depth: min(depth, 1)},
			ResponseTime: time.Duration(40+depth*15) * time.Millisecond, FetchedAt: at.Add(time.Duration(depth) * time.Second)}
		if html := examplePages[path]; html != "" {
			f := &webpage.Fetched{RequestedURL: u, At: p.FetchedAt, Document: fetch.ParseHTML([]byte(html)),
				Page: webpage.Response{URL: u, Status: 200, Header: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(html)}}
			a := pagecheck.Analyse(f, pagecheck.DefaultWeights)
			facts := pagecheck.PageFacts(f)
			p.Page.Status, p.Page.Title, p.Page.Description, p.Page.Outlinks = 200, facts.Title, facts.Description, facts.Links
			p.Page.Lang = strings.ToLower(facts.Lang)
			p.Score, p.Rating, p.Results, p.Bytes = a.Score, a.Rating, a.Results, int64(len(html))
			score += a.Score
			audited++
		}
		pages = append(pages, p)
	}
	if err := store.RecordPages(ctx, c.ID, nil, pages); err != nil {
		t.Fatal(err)
	}
	if err := store.SaveIssues(ctx, c.ID, issues); err != nil {
		t.Fatal(err)
	}
	checks, err := store.FailingChecks(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	score /= audited
	if _, err := store.FinishCrawl(ctx, c.ID, ports.CrawlFinish{Status: crawl.StatusFinished, Score: score, Rating: pagecheck.RatingFor(score),
		Summary: crawl.Summary{Issues: crawl.Counts(issues), Checks: checks}, At: at.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	return c.ID
}
