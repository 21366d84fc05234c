package sharepage

import (
	"context"
	"net/http"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
)

// topIssues is how many issues a crawl's page lists, the most severe first.
const topIssues = 25

// crawlView is what the page shows of a crawl.
type crawlView struct {
	URL, Site, Status, Result, Failure   string
	Score                                int
	Discovered, Crawled, Failed, Blocked int
	Final                                bool
	Finished, FinishedText               string
	Types                                []issueTypeView
	Issues                               []issueView
	IssuesTotal, IssuesShown             int
	AI                                   []crawl.AIAccess
	LLMsFound, LLMsWellFormed            bool
	LLMsFindings                         []crawl.LLMsFinding
	Rendering                            []crawl.RenderCount
}

// issueTypeView is how many issues of one type a crawl found.
type issueTypeView struct {
	Type, Title, Severity string
	Count                 int
}

// issueView is one issue with its URL and the others involved.
type issueView struct {
	Type, Title, Severity, URL, Detail, Advice string
	Related                                    []string
	RelatedOmitted                             int
}

// relatedShown bounds the related URLs shown under one issue.
const relatedShown = 5

// renderCrawl shows a crawl's summary: its score and rating, progress,
// issue counts by type with their severity, its most severe issues with
// their URLs, AI crawlers' access and /llms.txt, and for a rendered crawl
// how many pages a browser rendered and why the others were not.
func (p *sharePage) renderCrawl(ctx context.Context, w http.ResponseWriter, r *http.Request, c crawl.Crawl, csrf string) {
	v := crawlView{URL: c.Settings.URL, Site: c.Site, Status: string(c.Status), Result: string(c.Rating), Failure: c.Failure,
		Score: c.Score, Discovered: c.Progress.Discovered, Crawled: c.Progress.Crawled, Failed: c.Progress.Failed,
		Blocked: c.Progress.Blocked, Final: c.Status.Final(), AI: c.Summary.AI,
		LLMsFound: c.Summary.LLMsTxt.Found, LLMsWellFormed: c.Summary.LLMsTxt.Found && len(c.Summary.LLMsTxt.Findings) == 0,
		LLMsFindings: c.Summary.LLMsTxt.Findings, Rendering: c.Summary.Rendering}
	if !c.FinishedAt.IsZero() {
		v.Finished, v.FinishedText = c.FinishedAt.UTC().Format(time.RFC3339), c.FinishedAt.UTC().Format("2 Jan 2006 15:04 UTC")
	}
	for _, t := range c.Summary.Issues {
		d, _ := crawl.Definition(t.Type)
		v.Types = append(v.Types, issueTypeView{Type: string(t.Type), Title: d.Title, Severity: string(t.Severity), Count: t.Count})
		v.IssuesTotal += t.Count
	}
	issues, err := p.crawls.TopIssues(ctx, c, topIssues)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	for _, i := range issues {
		d, _ := crawl.Definition(i.Type)
		iv := issueView{Type: string(i.Type), Title: d.Title, Severity: string(d.Severity), URL: i.URL, Detail: i.Detail, Advice: d.Advice,
			Related: i.Related[:min(len(i.Related), relatedShown)]}
		iv.RelatedOmitted = max(i.RelatedTotal, len(i.Related)) - len(iv.Related)
		v.Issues = append(v.Issues, iv)
	}
	v.IssuesShown = len(v.Issues)
	p.render(w, r, http.StatusOK, "crawl", pageData{Kind: "crawl", Title: c.Site + " site audit", Token: c.Token, Action: p.opts.BasePath + Path(c.Token),
		CSRF: csrf, Crawl: v})
}
