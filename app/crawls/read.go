package crawls

import (
	"context"
	"errors"
	"strconv"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// PageParams are the page list parameters as sent; zero values take the
// defaults (every page, by id ascending, the first page of 10).
type PageParams struct {
	Status    int    // a final status code, 100 to 599; 0 for any
	IssueType string // an issue type (crawl.Catalogue); "" for any
	Check     string // a page check id (pagecheck.Catalogue); "" for any
	Indexable string // "true", "false" or "" for any
	SortBy    string // url, depth, score, inlinks or response_time; "" by id
	Sort      string // asc (default) or desc
	PerPage   int
	Page      int
}

// NewPageQuery validates p, reporting every invalid field at once in a
// *report.ValidationError (status, issue_type, check, indexable, sort_by,
// sort, per_page, page).
func NewPageQuery(p PageParams) (ports.PageQuery, error) {
	errs := report.Problems{}
	q := ports.PageQuery{Status: p.Status}
	if p.Status != 0 && (p.Status < 100 || p.Status > 599) {
		errs.Add("status", "must be an HTTP status code, 100 to 599")
	}
	if p.IssueType != "" {
		t, ok := crawl.ParseIssueType(p.IssueType)
		if !ok {
			errs.Add("issue_type", "must be an issue type of the catalogue (GET /crawls/{id}/issues lists them by type)")
		}
		q.IssueType = t
	}
	if p.Check != "" {
		if _, ok := pagecheck.LookupCheck(p.Check); !ok {
			errs.Add("check", "must be a page check id (a report's results list them; a crawl's summary counts the failing ones)")
		}
		q.Check = p.Check
	}
	switch p.Indexable {
	case "":
	case "true", "false":
		b := p.Indexable == "true"
		q.Indexable = &b
	default:
		errs.Add("indexable", "must be true or false")
	}
	switch s := ports.PageSort(p.SortBy); s {
	case "", ports.SortPagesByURL, ports.SortPagesByDepth, ports.SortPagesByScore, ports.SortPagesByInlinks, ports.SortPagesByResponseTime:
		q.SortBy = s
	default:
		errs.Add("sort_by", "must be url, depth, score, inlinks or response_time")
	}
	switch p.Sort {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		errs.Add("sort", "must be asc or desc")
	}
	q.Page = report.ParsePage(p.PerPage, p.Page, errs)
	return q, errs.Err()
}

// IssueParams are the issue list parameters as sent; zero values take the
// defaults (every issue, the first page of 10).
type IssueParams struct {
	Type, Severity string
	PerPage, Page  int
}

// NewIssueQuery validates p, reporting every invalid field at once
// (type, severity, per_page, page).
func NewIssueQuery(p IssueParams) (ports.IssueQuery, error) {
	errs := report.Problems{}
	var q ports.IssueQuery
	if p.Type != "" {
		t, ok := crawl.ParseIssueType(p.Type)
		if !ok {
			errs.Add("type", "must be an issue type of the catalogue")
		}
		q.Type = t
	}
	switch s := pagecheck.Importance(p.Severity); s {
	case "", pagecheck.High, pagecheck.Medium, pagecheck.Low:
		q.Severity = s
	default:
		errs.Add("severity", "must be high, medium or low")
	}
	q.Page = report.ParsePage(p.PerPage, p.Page, errs)
	return q, errs.Err()
}

// Pages returns the page of the user's crawl id's pages q selects and how
// many match. Errors: crawl.ErrNotFound.
func (cs *Crawls) Pages(ctx context.Context, userID, id int64, q ports.PageQuery) ([]ports.CrawlPage, int, error) {
	return cs.store.Pages(ctx, userID, id, q)
}

// Page returns one page of the user's crawl id with its audit. Errors:
// crawl.ErrNotFound.
func (cs *Crawls) Page(ctx context.Context, userID, id, pageID int64) (ports.CrawlPage, error) {
	return cs.store.Page(ctx, userID, id, pageID)
}

// Issues returns the page of the user's crawl id's issues q selects and
// how many match. Errors: crawl.ErrNotFound.
func (cs *Crawls) Issues(ctx context.Context, userID, id int64, q ports.IssueQuery) ([]crawl.Issue, int, error) {
	return cs.store.Issues(ctx, userID, id, q)
}

// EachPage calls fn with every recorded page of the user's crawl id (with
// its outlinks, without its audit), reading them in chunks. Errors:
// crawl.ErrNotFound, checked before fn is first called.
func (cs *Crawls) EachPage(ctx context.Context, userID, id int64, fn func(ports.CrawlPage) error) error {
	if _, err := cs.store.Crawl(ctx, userID, id); err != nil {
		return err
	}
	return cs.store.EachPage(ctx, id, fn)
}

// EachFailedCheck calls fn with every page check a page of the user's
// crawl id fails, by page, as EachPage.
func (cs *Crawls) EachFailedCheck(ctx context.Context, userID, id int64, fn func(ports.FailedCheck) error) error {
	if _, err := cs.store.Crawl(ctx, userID, id); err != nil {
		return err
	}
	return cs.store.EachFailedCheck(ctx, id, fn)
}

// EachIssue calls fn with every issue of the user's crawl id, as EachPage.
func (cs *Crawls) EachIssue(ctx context.Context, userID, id int64, fn func(crawl.Issue) error) error {
	if _, err := cs.store.Crawl(ctx, userID, id); err != nil {
		return err
	}
	return cs.store.EachIssue(ctx, id, fn)
}

// EachLink calls fn with every link of the user's crawl id, as EachPage.
func (cs *Crawls) EachLink(ctx context.Context, userID, id int64, fn func(from, to string) error) error {
	if _, err := cs.store.Crawl(ctx, userID, id); err != nil {
		return err
	}
	return cs.store.EachLink(ctx, id, fn)
}

// Compared is the diff of a crawl's issues against an earlier crawl's.
type Compared struct {
	Crawl, Against crawl.Crawl
	crawl.Diff
}

// ErrNothingToCompare is returned by Diff when the crawl has no earlier
// finished crawl comparable with it (crawl.Crawl.Comparable).
var ErrNothingToCompare = report.Invalid("against", "this crawl has no earlier finished crawl of the same start URL and subdomains setting: name one to compare with")

// Diff compares the issues of the user's crawl id with those of the
// user's crawl against, or, when against is 0, of the user's newest
// finished crawl comparable with it (crawl.Crawl.Comparable). Errors:
// crawl.ErrNotFound (either crawl), ErrNothingToCompare, and a
// *report.ValidationError when against is id itself.
func (cs *Crawls) Diff(ctx context.Context, userID, id, against int64) (Compared, error) {
	cur, err := cs.store.Crawl(ctx, userID, id)
	if err != nil {
		return Compared{}, err
	}
	var prev crawl.Crawl
	switch {
	case against == id:
		return Compared{}, report.Invalid("against", "must name another crawl than "+strconv.FormatInt(id, 10))
	case against != 0:
		prev, err = cs.store.Crawl(ctx, userID, against)
	default:
		prev, err = cs.store.PreviousCrawl(ctx, userID, id)
		if errors.Is(err, crawl.ErrNotFound) {
			err = ErrNothingToCompare
		}
	}
	if err != nil {
		return Compared{}, err
	}
	var before, after []crawl.Issue
	if err := cs.store.EachIssue(ctx, prev.ID, func(i crawl.Issue) error { before = append(before, i); return nil }); err != nil {
		return Compared{}, err
	}
	if err := cs.store.EachIssue(ctx, cur.ID, func(i crawl.Issue) error { after = append(after, i); return nil }); err != nil {
		return Compared{}, err
	}
	return Compared{Crawl: cur, Against: prev, Diff: crawl.DiffIssues(before, after)}, nil
}
