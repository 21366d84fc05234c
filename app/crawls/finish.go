package crawls

import (
	"context"
	"errors"
	"sync"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// finish ends the crawl as status: the Detector over every recorded page
// (streamed, while llms.txt is fetched and the failing checks counted),
// its issues saved, the site's score (the average of its
// audited pages'), rating and summary (issue counts, failing page checks,
// AI crawlers' access, llms.txt, the pages rendered and why; neither
// when the run fetched nothing)
// stored with the status (failed, with why, when its start URL did not
// answer and no page did: outcome); then the pages it did not crawl go
// back to the daily quota.
func (r *run) finish(ctx context.Context, status crawl.Status) error {
	cs := r.cs
	ctx = context.WithoutCancel(ctx)
	site := crawl.Site{StartURL: r.c.Settings.URL}
	if _, ok := r.robotsFile(); ok {
		site.RobotsURL, site.RobotsTxt = r.origin().JoinPath("robots.txt").String(), r.robots.Body
	}
	// What does not need the pages (llms.txt, the failing checks' counts)
	// is fetched and read meanwhile.
	var llms crawl.LLMsTxt
	var checks []crawl.CheckCount
	var checksErr error
	var side sync.WaitGroup
	read := r.sess != nil // false when the crawl ends before its run fetched anything (a cancel read at its claim)
	if read {
		side.Go(func() { llms = r.llmsTxt(ctx) })
	}
	side.Go(func() { checks, checksErr = cs.store.FailingChecks(ctx, r.c.ID) })
	d := crawl.NewDetector(site)
	o := outcome{start: r.c.Settings.URL}
	renders := crawl.RenderTally{}
	sum, n := 0, 0
	err := cs.store.EachPage(ctx, r.c.ID, func(p ports.CrawlPage) error {
		d.Add(p.Page)
		o.add(p.Page)
		renders.Add(p.Page)
		if p.Rating != "" {
			sum += p.Score
			n++
		}
		return nil
	})
	side.Wait()
	if err = errors.Join(err, checksErr); err != nil {
		return &ports.RetryError{Err: err}
	}
	issues := d.Finish()
	if err := cs.store.SaveIssues(ctx, r.c.ID, issues); err != nil {
		return &ports.RetryError{Err: err}
	}
	f := ports.CrawlFinish{At: cs.clock()}
	f.Status, f.Failure = o.end(status)
	if n > 0 {
		f.Score = (sum + n/2) / n
		f.Rating = pagecheck.RatingFor(f.Score)
	}
	f.Summary.Issues, f.Summary.Checks = crawl.Counts(issues), checks
	if read {
		rf, _ := r.robotsFile()
		f.Summary.AI = crawl.AIReadiness(rf, r.c.Settings.URL)
	}
	f.Summary.LLMsTxt, f.Summary.Rendering = llms, renders.Counts()
	done, err := cs.store.FinishCrawl(ctx, r.c.ID, f)
	switch {
	case errors.Is(err, crawl.ErrNotFound), errors.Is(err, crawl.ErrTransition):
		return nil // deleted, or ended by another run
	case err != nil:
		return &ports.RetryError{Err: err}
	}
	cs.returnUnused(ctx, done)
	return nil
}

// llmsTxt fetches /llms.txt (in the slice's session) and checks it.
func (r *run) llmsTxt(ctx context.Context) crawl.LLMsTxt {
	last, _, _, err := r.follow(ctx, r.origin().JoinPath("llms.txt").String(), robotsMaxBytes)
	if err != nil || last == nil || last.Response.Status < 200 || last.Response.Status >= 300 {
		return crawl.LLMsTxt{}
	}
	return crawl.LLMsTxt{Found: true, Findings: crawl.CheckLLMsTxt(last.Response.Body)}
}
