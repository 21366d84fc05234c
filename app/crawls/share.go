package crawls

import (
	"context"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// Shared returns the crawl of share token for its share page: viewer (0
// for none) sees a private one only when it is theirs. A malformed or
// unknown token, and a private crawl of another, are crawl.ErrNotFound.
func (cs *Crawls) Shared(ctx context.Context, token string, viewer int64) (crawl.Crawl, error) {
	if !report.ValidShareToken(token) {
		return crawl.Crawl{}, crawl.ErrNotFound
	}
	c, err := cs.store.CrawlByToken(ctx, token)
	if err != nil {
		return crawl.Crawl{}, err
	}
	if c.Settings.Privacy == report.Private && (viewer == 0 || c.UserID != viewer) {
		return crawl.Crawl{}, crawl.ErrNotFound
	}
	return c, nil
}

// CheckSharePassword reports whether password opens crawl c's share page
// (privacy 2). Errors: accounts.ErrPasswordsBusy, the context's.
func (cs *Crawls) CheckSharePassword(ctx context.Context, c crawl.Crawl, password string) (bool, error) {
	if c.Settings.Privacy != report.Protected || c.PasswordHash == "" || password == "" {
		return false, nil
	}
	return cs.pw.Verify(ctx, c.PasswordHash, password)
}

// TopIssues returns at most n of crawl c's issues, the most severe first
// (high, then medium, then low; each in catalogue order, then by URL), for
// its share page.
func (cs *Crawls) TopIssues(ctx context.Context, c crawl.Crawl, n int) ([]crawl.Issue, error) {
	var out []crawl.Issue
	for _, sev := range []pagecheck.Importance{pagecheck.High, pagecheck.Medium, pagecheck.Low} {
		if len(out) >= n {
			break
		}
		page, _, err := cs.store.Issues(ctx, c.UserID, c.ID, ports.IssueQuery{Severity: sev, Page: paging.Page{Number: 1, PerPage: n - len(out)}})
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
	}
	return out, nil
}
