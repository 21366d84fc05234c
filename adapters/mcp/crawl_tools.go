package mcp

import (
	"cmp"
	"context"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

type crawlStartArgs struct {
	URL         string            `json:"url" jsonschema:"The start page of the site to crawl: an http or https URL."`
	MaxPages    *int              `json:"max_pages,omitempty" jsonschema:"Most pages to fetch, 1 to 10000; default 500. Counts against the user's daily page quota when the crawl is accepted."`
	MaxDepth    *int              `json:"max_depth,omitempty" jsonschema:"Most clicks from the start page, 0 to 100; default 10."`
	Include     []string          `json:"include,omitempty" jsonschema:"Only paths matching one of these robots.txt-style patterns (e.g. /blog/ or /*.html$)."`
	Exclude     []string          `json:"exclude,omitempty" jsonschema:"Never paths matching one of these robots.txt-style patterns."`
	Subdomains  bool              `json:"subdomains,omitempty" jsonschema:"Also crawl the site's subdomains (the registrable domain); default false."`
	Concurrency *int              `json:"concurrency,omitempty" jsonschema:"Requests to the site at once, robots.txt and sitemaps included, 1 to 8; default 2."`
	DelayMS     *int              `json:"delay_ms,omitempty" jsonschema:"Pause between two requests to the site in milliseconds, 0 to 10000; default 0, besides robots.txt's Crawl-delay."`
	Headers     map[string]string `json:"headers,omitempty" jsonschema:"Up to 5 request headers (a Cookie, an Authorization) for a site behind a login: sent only to the start URL's host, never stored past the crawl's end, never shown back or logged."`
	Schedule    string            `json:"schedule,omitempty" jsonschema:"daily or weekly: crawl the site again by itself every period, each run charged to the daily page quota; off (the default): never. Refused with headers."`
	Render      *string           `json:"render,omitempty" jsonschema:"off (the default), on or auto: render the HTML pages in a browser too (auto: those that look like an application shell), audit them as rendered, follow links only scripts add, and find the rendered issue types (content_needs_js, js_errors, slow_lcp, ...). max_pages then counts against the daily quota of rendered pages too. on is refused where no browser can run."`
}

type crawlIDArgs struct {
	ID int64 `json:"id" jsonschema:"The crawl's id (from crawl_start)."`
}

type crawlIssuesArgs struct {
	ID       int64  `json:"id" jsonschema:"The crawl's id."`
	Type     string `json:"type,omitempty" jsonschema:"Only issues of this type, e.g. broken_link, duplicate_title, redirect_chain."`
	Severity string `json:"severity,omitempty" jsonschema:"Only issues of this severity: high, medium or low."`
	Page     int    `json:"page,omitempty" jsonschema:"Page number from 1."`
	PerPage  int    `json:"per_page,omitempty" jsonschema:"10 (the default), 25, 50 or 100."`
}

// issueCount is how many issues of one type a crawl found.
type issueCount struct {
	Type     string `json:"type"`
	Severity string `json:"severity" jsonschema:"high, medium or low."`
	Count    int    `json:"count"`
}

// crawlItem is a crawl's state and results, without its pages.
type crawlItem struct {
	ID           int64        `json:"id"`
	URL          string       `json:"url" jsonschema:"The start URL, normalised."`
	Site         string       `json:"site"`
	Status       string       `json:"status" jsonschema:"queued or running (not finished: call crawl_status later), finished, cancelled or failed."`
	Failure      string       `json:"failure,omitempty"`
	Concurrency  int          `json:"concurrency" jsonschema:"Requests to the site at once."`
	Schedule     string       `json:"schedule,omitempty" jsonschema:"daily or weekly when the site is crawled again by itself."`
	Render       string       `json:"render" jsonschema:"off, on or auto: whether the crawl renders pages in a browser."`
	Rendered     int          `json:"rendered" jsonschema:"Pages a browser rendered, once finished."`
	Discovered   int          `json:"discovered" jsonschema:"URLs in scope found so far."`
	Crawled      int          `json:"crawled" jsonschema:"Pages fetched and audited."`
	Failed       int          `json:"failed"`
	Blocked      int          `json:"blocked" jsonschema:"URLs robots.txt disallows, not fetched."`
	NotQueued    int          `json:"not_queued" jsonschema:"URLs found once the frontier (10 x max_pages URLs) was full: not crawled."`
	LinksNotRead int          `json:"links_not_read" jsonschema:"Links of pages beyond the first 5,000 of each page: not read."`
	Score        int          `json:"score" jsonschema:"0 to 100: the average of the crawled pages' scores."`
	Result       string       `json:"result" jsonschema:"good, decent or bad; empty until finished."`
	Issues       []issueCount `json:"issues" jsonschema:"Issue counts by type, once finished (crawl_issues lists them)."`
	CreatedAt    time.Time    `json:"created_at"`
}

// crawlIssue is one site-level issue.
type crawlIssue struct {
	Type     string   `json:"type"`
	Severity string   `json:"severity"`
	URL      string   `json:"url"`
	Detail   string   `json:"detail"`
	Related  []string `json:"related" jsonschema:"Other URLs involved: pages linking to a broken URL, pages sharing a title, the hops of a redirect chain."`
	Advice   string   `json:"advice"`
}

type crawlIssuesResult struct {
	Issues []crawlIssue `json:"issues"`
	Meta   pageMeta     `json:"meta"`
}

// addCrawls adds the whole-site audit tools, which need an API key.
func (t *tools) addCrawls(s *sdk.Server) {
	cs := t.Crawls
	addTool(s, t, &sdk.Tool{Name: "crawl_start", Title: "Audit a whole site (API key)",
		Annotations: &sdk.ToolAnnotations{OpenWorldHint: new(true)},
		Description: "Start crawling a public site from a URL: every page on the site gets the page audit, and the crawl " +
			"finds site-level issues (broken links, redirect chains, duplicate titles and content, orphan and deep pages, " +
			"sitemap and robots.txt problems). Needs an API key. Returns at once with the crawl queued; poll crawl_status. " +
			"rate_limited when the user has 3 crawls queued or running, or the daily page quota is used up."},
		func(ctx context.Context, req *sdk.CallToolRequest, in crawlStartArgs) (crawlItem, string, error) {
			user, err := t.userID(ctx, req.Extra)
			if err != nil {
				return crawlItem{}, "", err
			}
			if err := checkLen("url", in.URL, maxURL); err != nil {
				return crawlItem{}, "", err
			}
			c, err := cs.Create(ctx, user, crawl.Params{URL: in.URL, MaxPages: in.MaxPages, MaxDepth: in.MaxDepth,
				Concurrency: in.Concurrency, DelayMS: in.DelayMS, Include: in.Include, Exclude: in.Exclude,
				Subdomains: in.Subdomains, Headers: in.Headers, Schedule: in.Schedule, Render: in.Render}, nil)
			if err != nil {
				return crawlItem{}, "", err
			}
			return crawlItemOf(c), crawlSummary(c), nil
		})
	addTool(s, t, &sdk.Tool{Name: "crawl_status", Title: "A site crawl's status and results (API key)", Annotations: readOnly,
		Description: "One of the user's crawls by id: its status, progress, score and issue counts by type. Needs an API key."},
		func(ctx context.Context, req *sdk.CallToolRequest, in crawlIDArgs) (crawlItem, string, error) {
			user, err := t.userID(ctx, req.Extra)
			if err != nil {
				return crawlItem{}, "", err
			}
			c, err := cs.Get(ctx, user, in.ID)
			if err != nil {
				return crawlItem{}, "", err
			}
			return crawlItemOf(c), crawlSummary(c), nil
		})
	addTool(s, t, &sdk.Tool{Name: "crawl_issues", Title: "A site crawl's issues (API key)", Annotations: readOnly,
		Description: "A page of a finished crawl's site-level issues, most severe first, each with its URL, a detail, the " +
			"related URLs and advice. Filter by type or severity. Needs an API key."},
		func(ctx context.Context, req *sdk.CallToolRequest, in crawlIssuesArgs) (crawlIssuesResult, string, error) {
			user, err := t.userID(ctx, req.Extra)
			if err != nil {
				return crawlIssuesResult{}, "", err
			}
			q, err := crawls.NewIssueQuery(crawls.IssueParams{Type: in.Type, Severity: in.Severity, Page: in.Page, PerPage: in.PerPage})
			if err != nil {
				return crawlIssuesResult{}, "", err
			}
			issues, total, err := cs.Issues(ctx, user, in.ID, q)
			if err != nil {
				return crawlIssuesResult{}, "", err
			}
			out := crawlIssuesResult{Issues: make([]crawlIssue, len(issues)), Meta: metaOf(q.Page, total)}
			for i, is := range issues {
				d, _ := crawl.Definition(is.Type)
				out.Issues[i] = crawlIssue{Type: string(is.Type), Severity: string(d.Severity), URL: is.URL, Detail: is.Detail,
					Related: append([]string{}, is.Related...), Advice: d.Advice}
			}
			return out, fmt.Sprintf("%d issues; page %d of %d", total, out.Meta.CurrentPage, out.Meta.LastPage), nil
		})
}

func crawlItemOf(c crawl.Crawl) crawlItem {
	it := crawlItem{ID: c.ID, URL: c.Settings.URL, Site: c.Site, Status: string(c.Status), Failure: c.Failure,
		Concurrency: c.Settings.Concurrency, Schedule: string(c.Settings.Schedule),
		Discovered: c.Progress.Discovered, Crawled: c.Progress.Crawled, Failed: c.Progress.Failed, Blocked: c.Progress.Blocked,
		NotQueued: c.Progress.NotQueued, LinksNotRead: c.Progress.LinksNotRead,
		Score: c.Score, Result: string(c.Rating), Issues: []issueCount{}, CreatedAt: c.CreatedAt.UTC(),
		Render: string(cmp.Or(c.Settings.Render, pagecheck.RenderOff))}
	for _, r := range c.Summary.Rendering {
		if r.Rendered {
			it.Rendered += r.Pages
		}
	}
	for _, n := range c.Summary.Issues {
		it.Issues = append(it.Issues, issueCount{Type: string(n.Type), Severity: string(n.Severity), Count: n.Count})
	}
	return it
}

// crawlSummary is a crawl in one line.
func crawlSummary(c crawl.Crawl) string {
	if !c.Status.Final() {
		return fmt.Sprintf("crawl %d of %s is %s: %d pages crawled of %d found; call crawl_status again later",
			c.ID, c.Site, c.Status, c.Progress.Crawled, c.Progress.Discovered)
	}
	total := 0
	for _, n := range c.Summary.Issues {
		total += n.Count
	}
	return fmt.Sprintf("crawl %d of %s %s: %d pages, score %d (%s), %d site issues", c.ID, c.Site, c.Status,
		c.Progress.Crawled, c.Score, c.Rating, total)
}
