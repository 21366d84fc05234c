package crawl

import (
	"cmp"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

// Crawl is one whole-site audit a user asked for, as stored.
type Crawl struct {
	ID     int64 // increases with creation time
	UserID int64
	Token  string // the public share token (report.NewShareToken)
	Site   string // report.ProjectName of the start URL: the host without "www." (shown, and matched by search)
	// Politeness is its politeness unit (Settings.Politeness): at most
	// one crawl, of any user, holds it at a time.
	Politeness string
	Settings   Settings
	// PasswordHash is the share password's argon2id hash (Settings.Password
	// is never stored).
	PasswordHash string
	Status       Status
	// Failure is why it failed, when Status is StatusFailed; for a
	// finished crawl, why its start URL did not answer (others did).
	Failure string
	// CancelRequested tells the running crawler to stop: its user
	// cancelled it. The crawler ends it as StatusCancelled.
	CancelRequested bool
	// Seeded tells that its frontier holds its start URL and its
	// sitemaps' URLs: the crawler seeds a crawl until it is.
	Seeded   bool
	Progress Progress
	Score    int              // the average score of its crawled pages, 0-100
	Rating   pagecheck.Rating // pagecheck.RatingFor(Score); "" until final
	Summary  Summary          // set when final
	// NextRunAt is when the crawl's schedule starts its next run (see
	// Due); zero without a schedule.
	NextRunAt time.Time
	// ScheduledFrom is the crawl whose schedule started this one; 0 for a
	// crawl its user asked for.
	ScheduledFrom int64
	// QuotaUntil is when the pages charged to its user's daily page
	// quota for it (Settings.MaxPages) are all back in the quota by
	// themselves; zero when none were charged. Until then, the pages it
	// did not crawl are given back when it ends.
	QuotaUntil time.Time
	// RenderQuotaUntil is, for a rendered crawl, when the pages charged
	// to its user's daily quota of renders are all back by themselves
	// (zero: none charged); its unused ones are given back as its pages.
	RenderQuotaUntil time.Time
	CreatedAt        time.Time
	StartedAt        time.Time // zero until running
	// WaitingSince is since when it waits for its site or a worker (the
	// stores set it: its creation; its site found held; its run giving
	// its site or worker up); zero while it holds its site.
	WaitingSince time.Time
	FinishedAt   time.Time // zero until final
}

// Progress counts a crawl's URLs.
type Progress struct {
	Discovered int // URLs in scope found so far (crawled or waiting)
	Crawled    int // fetched, whatever they answered
	Failed     int // fetched without an answer, or answering 4xx/5xx
	Blocked    int // not fetched: robots.txt disallows them
	// NotQueued counts URLs in scope found once the frontier held
	// Settings.FrontierCap URLs: neither stored nor fetched (one found
	// again in a later batch counts again).
	NotQueued int
	// LinksNotRead counts the links of pages beyond their first
	// MaxLinksPerPage, as written on the pages (each page's own).
	LinksNotRead int
}

// Count adds sign (1 or -1) times the record p to the counters: blocked,
// or crawled and, when Broken, failed.
func (pr *Progress) Count(p Page, sign int) {
	switch {
	case p.BlockedByRobots:
		pr.Blocked += sign
	case p.Broken():
		pr.Crawled += sign
		pr.Failed += sign
	default:
		pr.Crawled += sign
	}
}

// ErrNotFound is returned for a crawl that does not exist or belongs to
// another user (the two are never told apart).
var ErrNotFound = fault.New(fault.NotFound, "crawl: not found")

// CrawlSort is a sort key of the crawl list.
type CrawlSort string

// Crawl sort keys; every key breaks ties by id.
const (
	SortByCreatedAt CrawlSort = "created_at"
	SortByPages     CrawlSort = "pages"
	SortByScore     CrawlSort = "score"
)

// ListParams are the crawl list parameters as sent; zero values take the
// defaults (any status, sort_by created_at, sort desc, the first page of
// reports' default size).
type ListParams struct {
	Status, Search, SortBy, Sort string
	PerPage, Page                int
}

// ListQuery is a validated crawl list query.
type ListQuery struct {
	Status Status // "" for any
	Search string // in report.URLKey form, matched in the site; "" for any
	SortBy CrawlSort
	Desc   bool
	paging.Page
}

// NewListQuery validates p, reporting every invalid field at once with
// the rules and messages of the report lists.
func NewListQuery(p ListParams) (ListQuery, error) {
	errs := report.Problems{}
	q := ListQuery{Search: report.URLKey(p.Search)}
	report.CheckText("search", p.Search, errs)
	if p.Status != "" {
		st, ok := ParseStatus(p.Status)
		if !ok {
			errs.Add("status", "must be queued, running, finished, cancelled or failed")
		}
		q.Status = st
	}
	switch s := CrawlSort(cmp.Or(p.SortBy, string(SortByCreatedAt))); s {
	case SortByCreatedAt, SortByPages, SortByScore:
		q.SortBy = s
	default:
		errs.Add("sort_by", "must be created_at, pages or score")
	}
	q.Desc = report.ParseDirection(p.Sort, errs)
	q.Page = report.ParsePage(p.PerPage, p.Page, errs)
	return q, errs.Err()
}

// Matches reports whether c passes the query's filters.
func (q ListQuery) Matches(c Crawl) bool {
	return (q.Status == "" || c.Status == q.Status) &&
		(q.Search == "" || strings.Contains(report.URLKey(c.Site), q.Search))
}

// Compare orders a before b (negative) or after (positive) in the query's
// order; ties are broken by id in the same direction. Pages sorts by the
// pages crawled.
func (q ListQuery) Compare(a, b Crawl) int {
	var c int
	switch q.SortBy {
	case SortByCreatedAt:
		c = a.CreatedAt.Compare(b.CreatedAt)
	case SortByPages:
		c = cmp.Compare(a.Progress.Crawled, b.Progress.Crawled)
	case SortByScore:
		c = cmp.Compare(a.Score, b.Score)
	}
	c = cmp.Or(c, cmp.Compare(a.ID, b.ID))
	if q.Desc {
		return -c
	}
	return c
}
