package sharepage

import (
	"context"
	"errors"
	"net/http"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
)

// shared is what a share token opens: a report or a crawl, with what the
// page's privacy rules read of either.
type shared struct {
	Token        string
	UserID       int64
	Privacy      report.Privacy
	PasswordHash string
	report       *report.Report // set for a report
	crawl        *crawl.Crawl   // set for a crawl
}

// kind is what s is, as pages name it: "report" or "crawl".
func (s shared) kind() string {
	if s.crawl != nil {
		return "crawl"
	}
	return "report"
}

// errNotShared is the one answer for a token that opens nothing the
// viewer may see: unknown, malformed, or private to another.
var errNotShared = errors.New("sharepage: not found")

// lookup returns what token opens for viewer (0 for none): a report,
// else a crawl (when the page serves crawls). errNotShared when neither.
func (p *sharePage) lookup(ctx context.Context, token string, viewer int64) (shared, error) {
	rep, err := p.reports.Shared(ctx, token, viewer)
	switch {
	case err == nil:
		return shared{Token: rep.Token, UserID: rep.UserID, Privacy: rep.Privacy, PasswordHash: rep.PasswordHash, report: &rep}, nil
	case !errors.Is(err, report.ErrNotFound):
		return shared{}, err
	case p.crawls == nil:
		return shared{}, errNotShared
	}
	c, err := p.crawls.Shared(ctx, token, viewer)
	switch {
	case errors.Is(err, crawl.ErrNotFound):
		return shared{}, errNotShared
	case err != nil:
		return shared{}, err
	}
	return shared{Token: c.Token, UserID: c.UserID, Privacy: c.Settings.Privacy, PasswordHash: c.PasswordHash, crawl: &c}, nil
}

// checkPassword reports whether password opens s (privacy 2).
func (p *sharePage) checkPassword(ctx context.Context, s shared, password string) (bool, error) {
	if s.crawl != nil {
		return p.crawls.CheckSharePassword(ctx, *s.crawl, password)
	}
	return p.reports.CheckSharePassword(ctx, *s.report, password)
}

// renderShared shows s: the report page, or the crawl's summary.
func (p *sharePage) renderShared(ctx context.Context, w http.ResponseWriter, r *http.Request, s shared, csrf string) {
	if s.crawl != nil {
		p.renderCrawl(ctx, w, r, *s.crawl, csrf)
		return
	}
	p.renderReport(w, r, *s.report, csrf)
}
