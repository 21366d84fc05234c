package ports

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

// CrawlStore keeps whole-site audits (crawls): the crawls themselves, the
// hold of one running crawl per site (politeness unit), each crawl's frontier (the URLs it
// found, to fetch or fetched) with its page records and links, and the
// site-level issues found when it ends. Methods taking a userID are the
// API's: another user's crawl is crawl.ErrNotFound, exactly like a missing
// one. The others are the crawler's, which knows the crawl by id; callers
// serving a user check ownership first (Crawl).
type CrawlStore interface {
	// CreateCrawl stores c (c.UserID owns it) as queued, assigning an ID
	// greater than every ID assigned before and a share token no other
	// crawl has; c.ID, c.Token, c.Status, progress, score and summary are
	// ignored, and c.Settings.Password is never stored (c.PasswordHash
	// is); c.QuotaUntil is stored as given; c.Politeness too, or
	// c.Settings.Politeness("") when empty; c.WaitingSince is
	// c.CreatedAt. c.NextRunAt is set from c's
	// schedule (crawl.NextRun at
	// c.CreatedAt). When c.ScheduledFrom is not 0 (a scheduled run,
	// crawl.Crawl.Rerun), the same transaction checks that crawl is still
	// due at c.CreatedAt (crawl.Crawl.Due, and no crawl it started is
	// queued or running) and moves its NextRunAt one period past
	// c.CreatedAt: crawl.ErrNotDue, storing nothing, when it is not. It
	// refuses with crawl.ErrActiveLimit, storing nothing, when
	// the user already has limit crawls queued or running, counting and
	// inserting atomically (concurrent creates never pass the cap); limit
	// <= 0 sets no cap. When idem is not nil, the same transaction
	// finishes the user's unfinished Idempotency-Key record (claimed with
	// ReportStore.ClaimIdempotency of the same database) held by
	// idem.Claim, its ReportIDs being the crawl's ID and its Outcome
	// idem.Outcome; report.ErrClaimLost and nothing stored when that claim
	// is no longer held.
	CreateCrawl(ctx context.Context, c crawl.Crawl, limit int, idem *report.Idempotency) (crawl.Crawl, error)
	// Crawl returns the user's crawl id, or crawl.ErrNotFound. Its
	// Settings.Headers are those sent while it is not final, none after.
	Crawl(ctx context.Context, userID, id int64) (crawl.Crawl, error)
	// CrawlByID returns crawl id whoever owns it (for the crawler and
	// share pages), or crawl.ErrNotFound.
	CrawlByID(ctx context.Context, id int64) (crawl.Crawl, error)
	// CrawlByToken returns the crawl whose share token is token, whoever
	// owns it (for its share page), or crawl.ErrNotFound.
	CrawlByToken(ctx context.Context, token string) (crawl.Crawl, error)
	// Crawls returns the page of the user's crawls selected by q (its
	// filters, sort and page, as crawl.ListQuery orders them) and the
	// number matching q's filters. Listed crawls carry every field.
	Crawls(ctx context.Context, userID int64, q crawl.ListQuery) ([]crawl.Crawl, int, error)
	// DueCrawls returns the crawls whose scheduled run is due at now
	// (crawl.Crawl.Due) and none of whose runs (crawls ScheduledFrom them)
	// is queued or running, earliest NextRunAt first, at most limit.
	DueCrawls(ctx context.Context, now time.Time, limit int) ([]crawl.Crawl, error)
	// SetSchedule gives the user's crawl id schedule s, its next run at
	// next (zero when s is off). Errors: crawl.ErrNotFound.
	SetSchedule(ctx context.Context, userID, id int64, s report.Schedule, next time.Time) (crawl.Crawl, error)
	// DeferRun moves crawl id's next run to next when the crawl still has
	// a schedule (its run was refused for now); nothing otherwise.
	// Errors: crawl.ErrNotFound.
	DeferRun(ctx context.Context, id int64, next time.Time) error
	// PreviousCrawl returns the user's newest finished crawl comparable
	// with crawl id (crawl.Crawl.Comparable: the same start URL and scope)
	// created before it, or crawl.ErrNotFound (also when the user has no
	// crawl id).
	PreviousCrawl(ctx context.Context, userID, id int64) (crawl.Crawl, error)
	// CancelCrawl cancels the user's crawl id: a queued crawl, or a
	// running one whose site no run holds unexpired at at (its job
	// waits for a retry or a snooze, or its run died), becomes cancelled
	// at once (FinishedAt at; what it recorded kept, its site released),
	// queueing its crawl.finished deliveries as FinishCrawl does; a
	// running one held by a run gets CancelRequested, which its crawler
	// reads from RenewSite (or ClaimSite) and then ends it with
	// FinishCrawl. crawl.ErrTransition for a final crawl.
	CancelCrawl(ctx context.Context, userID, id int64, at time.Time) (crawl.Crawl, error)
	// DeleteCrawl deletes the user's crawl id with its frontier, pages,
	// links and issues, releasing its site; crawl.ErrNotFound when the
	// user has none. A crawler still running it gets crawl.ErrNotFound
	// from RenewSite.
	DeleteCrawl(ctx context.Context, userID, id int64) error

	// ClaimSite starts or resumes crawl id for the run named holder: when
	// no other crawl holds the crawl's site (its Politeness; a hold ends
	// at FinishCrawl, at YieldSite or when its lease expires by now), or
	// the site was handed to this crawl (YieldSite), and no other holder
	// holds this crawl unexpired, it holds the site until until, moves a
	// queued crawl to running (StartedAt now), clears its WaitingSince and
	// returns it with true. Otherwise, or when the crawl is final, it
	// returns the crawl with false: a queued crawl waits, a final one is
	// done; a crawl finding its site held gets WaitingSince now unless it
	// was waiting already. The check and the hold are one atomic step
	// across processes sharing the store. A running crawl whose hold
	// another crawl took over (its lease expired) stays running until it
	// claims its site again. Errors: crawl.ErrNotFound.
	ClaimSite(ctx context.Context, id int64, holder string, now, until time.Time) (crawl.Crawl, bool, error)
	// Share tells a run of crawl id at now whether to give its worker or
	// its site to another user's crawl (crawl.Share): how many other
	// crawls of its user are running; whether another user has a crawl
	// not final, waiting (WaitingSince) since less than crawl.MaxYieldFor,
	// whose site no crawl holds unexpired or which was handed to it; and
	// whether another user has such a waiting crawl of the same
	// Politeness while crawl id holds it. The zero Share for a final
	// crawl. Errors: crawl.ErrNotFound.
	Share(ctx context.Context, id int64, now time.Time) (crawl.Share, error)
	// YieldSite gives holder's hold of crawl id's site up at now and
	// makes the crawl wait (WaitingSince now): when another user has a
	// crawl waiting for the site (crawl.Share.SiteWaiting), the site is
	// handed to the one waiting longest (the earliest WaitingSince, then
	// the lowest id) until until: no other crawl, crawl id included, can
	// claim it meanwhile. Else the site is free. It reports whether the
	// site was handed on. Errors: crawl.ErrLeaseLost (holder does not hold
	// it), crawl.ErrNotFound.
	YieldSite(ctx context.Context, id int64, holder string, now, until time.Time) (handed bool, err error)
	// RenewSite extends holder's hold of crawl id's site until until, and
	// says whether the crawl's cancel was requested. Errors:
	// crawl.ErrLeaseLost (the crawl ended, or another run holds the site
	// or the crawl), crawl.ErrNotFound (the crawl was deleted).
	RenewSite(ctx context.Context, id int64, holder string, until time.Time) (cancelRequested bool, err error)
	// FinishCrawl moves crawl id to f.Status (crawl.Crawl.Ending: finished
	// becomes cancelled when the crawl's cancel was requested;
	// crawl.ErrTransition when it may not), with f's failure, score,
	// rating and summary and FinishedAt f.At; counts every recorded
	// page's inlinks (CrawlPage.Inlinks); forgets the request headers;
	// releases the site; and, when the store has a queue of deliveries,
	// stores one crawl.finished delivery (webhook.CrawlFinished) with its
	// job for each of the user's webhooks that wants it, in one
	// transaction. Errors: crawl.ErrNotFound, crawl.ErrTransition.
	FinishCrawl(ctx context.Context, id int64, f CrawlFinish) (crawl.Crawl, error)

	// AddURLs adds discovered URLs (normalised, crawl.Normalize) to crawl
	// id's frontier, each URL once per crawl: a URL already there keeps
	// the smaller depth (crawl.NoDepth counting as the largest) and
	// InSitemap becomes true when either says so; its Source stays the
	// first. Discovered counts the new ones, which it returns. The
	// frontier holds at most the crawl's Settings.FrontierCap URLs: of
	// the new URLs beyond it (the shallowest of a call first, then in
	// the order given) none is stored, and Progress.NotQueued counts
	// them. Errors: crawl.ErrNotFound.
	AddURLs(ctx context.Context, id int64, urls []FrontierURL) (int, error)
	// MarkSeeded records that crawl id's frontier holds its start URL and
	// its sitemaps' URLs (crawl.Crawl.Seeded). Errors: crawl.ErrNotFound.
	MarkSeeded(ctx context.Context, id int64) error
	// ClaimURLs leases to the caller at most n of crawl id's URLs waiting
	// to be fetched, or leased before with a lease expired by now (a
	// crashed fetch), until until, lowest depth first, then in discovery
	// order, each with Attempt one more. A URL's depth is its fewest
	// clicks from the start URL, and an unrecorded page (leased or not) may
	// still lower the depth of URLs two or more levels below it: only URLs
	// at most one level below the shallowest unrecorded URL are handed
	// out, and those of crawl.NoDepth (found only in sitemaps so far) wait
	// while any URL with a depth is unrecorded. It
	// never hands out more than the crawl's MaxPages minus the URLs
	// recorded (not blocked) or leased unexpired, and never a URL another
	// caller holds unexpired: callers in several processes share a crawl.
	// None when nothing waits. Errors: crawl.ErrNotFound.
	ClaimURLs(ctx context.Context, id int64, n int, now, until time.Time) ([]FrontierURL, error)
	// RecordPages adds found to crawl id's frontier as AddURLs does, then
	// records fetched (or robots.txt-blocked) pages of the crawl, all in one
	// transaction (a claim never sees a recorded page whose links are
	// missing): each page's record (its Page.URL is added
	// to the frontier if it was not there; its depth and InSitemap are
	// the frontier's, Page.Depth and Page.InSitemap ignored), and its
	// outlinks as links. Recording a URL again replaces its record and
	// links without counting it twice. Progress counts Crawled, Failed
	// (crawl.Page.Broken) and Blocked, and LinksNotRead adds the pages'
	// (recorded pages are stored past the frontier's cap, found URLs
	// are not). Errors: crawl.ErrNotFound.
	RecordPages(ctx context.Context, id int64, found []FrontierURL, pages []FetchedPage) error
	// RecordOf returns the record of url (normalised) in crawl id, with
	// the frontier's depth and sitemap flag but without Outlinks; false
	// when url has none yet (the crawler reads what a redirect's later hop
	// answered instead of fetching it again). Errors: crawl.ErrNotFound.
	RecordOf(ctx context.Context, id int64, url string) (crawl.Page, bool, error)
	// SaveIssues replaces crawl id's site-level issues with issues, kept
	// in the order given (crawl.Detector.Finish's). Errors:
	// crawl.ErrNotFound.
	SaveIssues(ctx context.Context, id int64, issues []crawl.Issue) error

	// Pages returns the page of crawl id's recorded pages selected by q
	// and how many match q's filters; the user's only (crawl.ErrNotFound).
	// Listed pages carry neither Results nor Outlinks.
	Pages(ctx context.Context, userID, id int64, q PageQuery) ([]CrawlPage, int, error)
	// Page returns one recorded page of the user's crawl id by its
	// CrawlPage.ID, with its Results and Outlinks, or crawl.ErrNotFound.
	Page(ctx context.Context, userID, id, pageID int64) (CrawlPage, error)
	// Issues returns the page of crawl id's issues selected by q (in
	// stored order) and how many match its filters; the user's only
	// (crawl.ErrNotFound).
	Issues(ctx context.Context, userID, id int64, q IssueQuery) ([]crawl.Issue, int, error)
	// EachPage calls fn with every recorded page of crawl id in ID order,
	// with its Outlinks and IssueTypes but without Results, reading them in bounded
	// chunks (never the whole crawl at once, and no statement held open
	// while fn runs). An error from fn stops it and is returned.
	EachPage(ctx context.Context, id int64, fn func(CrawlPage) error) error
	// FailingChecks counts, per page check, the audited pages of crawl id
	// failing it (pagecheck.Results.Failing of each recorded page's
	// Results, kept at RecordPages): one entry per check some page fails,
	// sorted by check id; the crawl's summary lists them. Errors:
	// crawl.ErrNotFound.
	FailingChecks(ctx context.Context, id int64) ([]crawl.CheckCount, error)
	// EachFailedCheck calls fn with every page check an audited page of
	// crawl id fails (each check of its Results not passed), by page in ID
	// order and, within a page, in the order of Failing, in chunks as
	// EachPage does. Errors: crawl.ErrNotFound.
	EachFailedCheck(ctx context.Context, id int64, fn func(FailedCheck) error) error
	// EachIssue calls fn with every issue of crawl id in stored order, in
	// chunks as EachPage does; the diff of two crawls reads both this way.
	EachIssue(ctx context.Context, id int64, fn func(crawl.Issue) error) error
	// EachLink calls fn with every link of crawl id (from a recorded
	// page's URL to a URL it links to), by linking page in ID order, in
	// chunks as EachPage does.
	EachLink(ctx context.Context, id int64, fn func(from, to string) error) error
}

// CrawlFinish is how a crawl ends (CrawlStore.FinishCrawl).
type CrawlFinish struct {
	Status  crawl.Status // finished, cancelled or failed
	Failure string       // why, when failed
	Score   int          // the average score of its pages
	Rating  pagecheck.Rating
	Summary crawl.Summary
	At      time.Time
}

// FrontierURL is a URL of a crawl's frontier.
type FrontierURL struct {
	URL       string // normalised
	Depth     int    // clicks from the start URL; crawl.NoDepth
	InSitemap bool
	// Source says how it was found first: the URL of the page linking to
	// it, "sitemap" or "start".
	Source string
	// Attempt is how many times it was leased, this one included (set by
	// ClaimURLs; ignored by AddURLs).
	Attempt int
	// FoundByJS tells that Source links to it only in its rendered DOM
	// (crawl.Page.FoundByJS); kept from the URL's first discovery.
	FoundByJS bool
}

// FetchedPage is what a crawler records of one URL it fetched (or did not
// fetch: Page.BlockedByRobots).
type FetchedPage struct {
	Page         crawl.Page
	Score        int // the page audit's score, 0 when not audited
	Rating       pagecheck.Rating
	Results      pagecheck.Results // the page audit, as a report's; nil when not audited
	ResponseTime time.Duration
	Bytes        int64 // the body's size
	FetchedAt    time.Time
	// LinksNotRead counts the page's links beyond crawl.MaxLinksPerPage,
	// not read (RecordPages adds it to Progress.LinksNotRead).
	LinksNotRead int
	// Rendering is the page's raw-versus-rendered comparison, what it
	// loaded and its lab metrics when a rendered crawl rendered it (kept
	// with Results); nil otherwise. Page.Render is its summary.
	Rendering *pagecheck.Rendering
}

// CrawlPage is a recorded page as stored: its record (with the frontier's
// depth and sitemap flag), audit and measures, and what the crawl learnt
// of it since.
type CrawlPage struct {
	ID int64 // unique within the store, increasing in discovery order
	FetchedPage
	Indexable  bool // Page.Indexable
	Outlinks   int  // len(Page.Outlinks)
	Inlinks    int  // recorded pages linking to it (itself aside), counted by FinishCrawl
	IssueTypes []crawl.IssueType
	// Failing is the ids of the page checks its audit fails
	// (pagecheck.Results.Failing, kept at RecordPages); nil when none
	// fails or the page was not audited.
	Failing []string
}

// FailedCheck is one page check a recorded page of a crawl fails.
type FailedCheck struct {
	PageID int64  // CrawlPage.ID
	URL    string // the page's URL
	Check  pagecheck.Check
}

// PageSort is a sort key of a crawl's page list.
type PageSort string

// Page sort keys; every key breaks ties by page ID.
const (
	SortPagesByURL          PageSort = "url" // byte order
	SortPagesByDepth        PageSort = "depth"
	SortPagesByScore        PageSort = "score"
	SortPagesByInlinks      PageSort = "inlinks"
	SortPagesByResponseTime PageSort = "response_time"
)

// PageQuery selects pages of a crawl.
type PageQuery struct {
	Status    int             // the final status code; 0 for any
	IssueType crawl.IssueType // pages with an issue of that type (the issue's URL is theirs); "" for any
	Check     string          // pages whose audit fails that page check (in Failing); "" for any
	Indexable *bool           // nil for any
	SortBy    PageSort        // "" sorts by ID
	Desc      bool
	paging.Page
}

// IssueQuery selects issues of a crawl.
type IssueQuery struct {
	Type     crawl.IssueType      // "" for any
	Severity pagecheck.Importance // "" for any
	paging.Page
}
