package wire

import "time"

// CrawlSettingsData are a crawl's settings as accepted (its request
// headers are never shown back).
type CrawlSettingsData struct {
	MaxPages    int      `json:"max_pages" doc:"At most this many URLs are fetched (robots.txt-blocked ones not counted)."`
	MaxDepth    int      `json:"max_depth" doc:"Links are followed at most this many clicks from the start URL."`
	Concurrency int      `json:"concurrency" doc:"At most this many requests to the site at once."`
	DelayMS     int      `json:"delay_ms" doc:"Pause between two requests to the site, in milliseconds, besides robots.txt's Crawl-delay."`
	Include     []string `json:"include" doc:"Only paths matching one of these patterns are crawled (empty: every path)."`
	Exclude     []string `json:"exclude" doc:"Paths matching one of these patterns are not crawled."`
	Subdomains  bool     `json:"subdomains" doc:"Whether the start URL's registrable domain with its subdomains is crawled, not only its host."`
	Headers     int      `json:"headers" doc:"How many request headers the crawl sends to the site while it runs (never shown back, forgotten when it ends)."`
	Render      string   `json:"render" enum:"off,on,auto" doc:"Whether the crawl renders its HTML pages in a browser: off, on (every one) or auto (those whose HTML looks like an application shell)."`
}

// CrawlProgressData counts a crawl's URLs.
type CrawlProgressData struct {
	Discovered   int `json:"discovered" doc:"URLs in scope found so far, crawled or waiting."`
	Crawled      int `json:"crawled" doc:"URLs fetched, whatever they answered."`
	Failed       int `json:"failed" doc:"URLs fetched that answered 4xx or 5xx, or nothing."`
	Blocked      int `json:"blocked" doc:"Linked URLs not fetched because robots.txt disallows them."`
	NotQueued    int `json:"not_queued" doc:"URLs in scope found once the crawl's frontier was full, neither stored nor fetched: a crawl keeps at most 10 x max_pages URLs (discovered), the shallowest found first; one found again later counts again."`
	LinksNotRead int `json:"links_not_read" doc:"Links of pages beyond the first 5,000 on-site links of each page (and 5,000 hreflang links), not read: neither outlinks nor followed."`
}

// CrawlItem is a crawl as lists show it.
type CrawlItem struct {
	ID            int64             `json:"id" doc:"Crawl id."`
	URL           string            `json:"url" doc:"The start URL, normalised."`
	Site          string            `json:"site" doc:"The start URL's host, lower-cased, without a leading www."`
	Status        string            `json:"status" enum:"queued,running,finished,cancelled,failed" doc:"queued (waiting for a worker, or for another crawl of the same site to end), running, then finished, cancelled (what was found is kept) or failed (see failure)."`
	Failure       string            `json:"failure" doc:"Why the crawl failed; for a crawl whose start URL did not answer, why (\"the start URL ... did not answer: ...\"): it is failed when no page answered, finished when others (sitemap URLs) did; empty otherwise."`
	Privacy       int               `json:"privacy" enum:"0,1,2" doc:"0 public, 1 private, 2 password."`
	HasPassword   bool              `json:"has_password" doc:"Whether a share password is stored."`
	ShareURL      string            `json:"share_url" doc:"Path of the crawl's HTML summary page on this server, /r/ followed by the crawl's share token, as a report's share_url: the site, score, rating, issue counts by type with severity, the most severe issues with their URLs, AI crawlers' access and /llms.txt. The page honours privacy as a report's does (0 anyone, 2 after the password, 1 the owner only)."`
	Schedule      string            `json:"schedule" enum:"daily,weekly,off" doc:"How often the crawl starts a new crawl of the site with its settings by itself (off: never)."`
	NextRunAt     *time.Time        `json:"next_run_at,omitempty" doc:"When the schedule's next run is due (it starts once this crawl and its previous run have ended); absent without a schedule."`
	ScheduledFrom int64             `json:"scheduled_from,omitempty" doc:"The id of the crawl whose schedule started this one; absent for a crawl asked for by its user."`
	Settings      CrawlSettingsData `json:"settings" doc:"The crawl's settings as accepted."`
	Progress      CrawlProgressData `json:"pages" doc:"The crawl's URLs counted."`
	Score         int               `json:"score" doc:"Average score of the crawled pages, 0 to 100 (0 until the crawl ends)."`
	Result        string            `json:"result" doc:"Band of the score: good, decent or bad; empty until the crawl ends."`
	CreatedAt     time.Time         `json:"created_at" doc:"When the crawl was accepted."`
	StartedAt     *time.Time        `json:"started_at" doc:"When it started running; null until then."`
	FinishedAt    *time.Time        `json:"finished_at" doc:"When it ended; null until then."`
}

// CrawlPageItem is a crawled URL as the page list shows it.
type CrawlPageItem struct {
	ID              int64     `json:"id" doc:"Page id within the crawl (GET /crawls/{id}/pages/{page})."`
	URL             string    `json:"url" doc:"The URL requested, normalised."`
	FinalURL        string    `json:"final_url" doc:"The URL after redirects; url when there were none."`
	StatusCode      int       `json:"status_code" doc:"The final answer's HTTP status; 0 when nothing answered or the URL was not fetched (robots.txt)."`
	Failure         string    `json:"failure" doc:"Why nothing answered; empty otherwise."`
	Depth           *int      `json:"depth" doc:"Clicks from the start URL (0 for it); null for a URL found only in a sitemap."`
	InSitemap       bool      `json:"in_sitemap" doc:"Whether a sitemap of the site lists the URL."`
	BlockedByRobots bool      `json:"blocked_by_robots" doc:"Whether robots.txt disallows the URL (then it was not fetched)."`
	Redirects       []string  `json:"redirects" doc:"The URLs that answered a redirect, in order, the first being url; empty when url answered itself."`
	Title           string    `json:"title" doc:"The page's title."`
	Description     string    `json:"description" doc:"The page's meta description."`
	Score           int       `json:"score" doc:"The page audit's score, 0 to 100; 0 when not audited (not HTML, an error, a redirect)."`
	Result          string    `json:"result" doc:"Band of the score: good, decent or bad; empty when not audited."`
	Inlinks         int       `json:"inlinks" doc:"Crawled pages linking to this URL (itself aside)."`
	Outlinks        int       `json:"outlinks" doc:"On-site URLs the page links to, each once."`
	ResponseTimeMS  int64     `json:"response_time_ms" doc:"Time to the final answer's body, in milliseconds."`
	Bytes           int64     `json:"bytes" doc:"Size of the body read."`
	Canonical       string    `json:"canonical" doc:"The rel=canonical URL; empty for none."`
	Indexable       bool      `json:"indexable" doc:"Whether search engines may index the page: it answered 2xx itself, says no noindex and names no other URL as canonical."`
	IssueTypes      []string  `json:"issue_types" doc:"Types of the site-level issues about this URL, in catalogue order."`
	FetchedAt       time.Time `json:"fetched_at" doc:"When it was fetched."`
	Rendered        bool      `json:"rendered" doc:"Whether a browser rendered the page (a rendered crawl's audited pages): its title, description, canonical, noindex, links and audit are then the rendered DOM's."`
	RenderReason    string    `json:"render_reason" doc:"Why the page was rendered or not, in a rendered crawl: requested (render on), the automatic rule's reason (app_shell, noscript_notice, little_text, not_html, no_scripts, server_rendered), renderer_unavailable, or render_failed: and why; empty in a crawl that does not render, or for a page not audited."`
	FoundByJS       bool      `json:"found_by_js" doc:"Whether the URL was first found through a link that only the rendered DOM of the page linking to it has: a crawler that does not run scripts would not find it there."`
	Lang            string    `json:"lang" doc:"The page's language as its <html lang> declares it, lower case; empty when it declares none (or was not audited)."`
	FailingChecks   []string  `json:"failing_checks" doc:"Ids of the page checks the page's audit fails, by category name then in check order (GET /crawls/{id}/pages/{page} gives each with its value and advice; the checks export lists them all); empty when every check passes or the page was not audited."`
}
