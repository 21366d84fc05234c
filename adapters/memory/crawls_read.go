package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// eachChunk is how many rows an Each method copies under the lock at once.
const eachChunk = 500

// pageOfRow is r's record as stored, with the frontier's depth and
// sitemap flag; the caller holds the lock.
func pageOfRow(r *frontierRow, withResults bool) ports.CrawlPage {
	p := r.page
	p.Page = clonePage(p.Page)
	p.Page.Depth, p.Page.InSitemap, p.Page.FoundByJS = r.url.Depth, r.url.InSitemap, r.url.FoundByJS
	p.Failing = slices.Clone(r.failing)
	if !withResults {
		p.Rendering = nil // kept with the audit, as the stores keep it
	}
	if withResults {
		p.Results = r.decodedResults()
	}
	return p
}

// decodedResults is r's audit, decoded from its JSON.
func (r *frontierRow) decodedResults() pagecheck.Results {
	var res pagecheck.Results
	if err := json.Unmarshal(r.results, &res); err != nil {
		panic("memory: stored results do not decode: " + err.Error()) // written by RecordPages
	}
	return res
}

// issueTypes maps each URL of d's issues to their types, in catalogue order.
func (d *crawlData) issueTypes() map[string][]crawl.IssueType {
	m := map[string][]crawl.IssueType{}
	for _, is := range d.issues {
		if !slices.Contains(m[is.URL], is.Type) {
			m[is.URL] = append(m[is.URL], is.Type)
		}
	}
	for _, ts := range m {
		crawl.SortIssueTypes(ts)
	}
	return m
}

// Pages implements ports.CrawlStore.
func (s *CrawlStore) Pages(_ context.Context, userID, id int64, q ports.PageQuery) ([]ports.CrawlPage, int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.owned(userID, id)
	if err != nil {
		return nil, 0, err
	}
	types := d.issueTypes()
	var all []*frontierRow
	for _, r := range d.rows {
		if !r.recorded {
			continue
		}
		p := &r.page
		if (q.Status != 0 && p.Page.Status != q.Status) ||
			(q.IssueType != "" && !slices.Contains(types[r.url.URL], q.IssueType)) ||
			(q.Check != "" && !slices.Contains(r.failing, q.Check)) ||
			(q.Indexable != nil && p.Indexable != *q.Indexable) {
			continue
		}
		all = append(all, r)
	}
	slices.SortFunc(all, func(a, b *frontierRow) int {
		var c int
		switch q.SortBy {
		case ports.SortPagesByURL:
			c = strings.Compare(a.url.URL, b.url.URL)
		case ports.SortPagesByDepth:
			c = crawl.CompareDepth(a.url.Depth, b.url.Depth)
		case ports.SortPagesByScore:
			c = cmp.Compare(a.page.Score, b.page.Score)
		case ports.SortPagesByInlinks:
			c = cmp.Compare(a.page.Inlinks, b.page.Inlinks)
		case ports.SortPagesByResponseTime:
			c = cmp.Compare(a.page.ResponseTime, b.page.ResponseTime)
		}
		c = cmp.Or(c, cmp.Compare(a.id, b.id))
		if q.Desc {
			return -c
		}
		return c
	})
	page := pageOf(all, q.Page)
	out := make([]ports.CrawlPage, len(page))
	for i, r := range page {
		out[i] = pageOfRow(r, false)
		out[i].Page.Outlinks = nil
		out[i].IssueTypes = slices.Clone(types[r.url.URL])
	}
	return out, len(all), nil
}

// Page implements ports.CrawlStore.
func (s *CrawlStore) Page(_ context.Context, userID, id, pageID int64) (ports.CrawlPage, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.owned(userID, id)
	if err != nil {
		return ports.CrawlPage{}, err
	}
	i, found := slices.BinarySearchFunc(d.rows, pageID, func(r *frontierRow, id int64) int { return cmp.Compare(r.id, id) })
	if !found || !d.rows[i].recorded {
		return ports.CrawlPage{}, crawl.ErrNotFound
	}
	p := pageOfRow(d.rows[i], true)
	p.IssueTypes = slices.Clone(d.issueTypes()[p.Page.URL])
	return p, nil
}

// Issues implements ports.CrawlStore.
func (s *CrawlStore) Issues(_ context.Context, userID, id int64, q ports.IssueQuery) ([]crawl.Issue, int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.owned(userID, id)
	if err != nil {
		return nil, 0, err
	}
	var all []crawl.Issue
	for _, is := range d.issues {
		if (q.Type == "" || is.Type == q.Type) && (q.Severity == "" || is.Severity() == q.Severity) {
			all = append(all, is)
		}
	}
	page := pageOf(all, q.Page)
	out := make([]crawl.Issue, len(page))
	for i, is := range page {
		out[i] = cloneIssue(is)
	}
	return out, len(all), nil
}

// EachPage implements ports.CrawlStore.
func (s *CrawlStore) EachPage(ctx context.Context, id int64, fn func(ports.CrawlPage) error) error {
	var types map[string][]crawl.IssueType // read once: issues are saved when the crawl ends
	return s.each(ctx, id, func(d *crawlData, r *frontierRow, emit func(func() error)) {
		if types == nil {
			types = d.issueTypes()
		}
		if r.recorded {
			p := pageOfRow(r, false)
			p.IssueTypes = slices.Clone(types[r.url.URL])
			emit(func() error { return fn(p) })
		}
	})
}

// EachFailedCheck implements ports.CrawlStore.
func (s *CrawlStore) EachFailedCheck(ctx context.Context, id int64, fn func(ports.FailedCheck) error) error {
	return s.each(ctx, id, func(_ *crawlData, r *frontierRow, emit func(func() error)) {
		if !r.recorded || len(r.failing) == 0 {
			return
		}
		for _, c := range r.decodedResults().FailedChecks() {
			f := ports.FailedCheck{PageID: r.id, URL: r.url.URL, Check: c}
			emit(func() error { return fn(f) })
		}
	})
}

// FailingChecks implements ports.CrawlStore.
func (s *CrawlStore) FailingChecks(_ context.Context, id int64) ([]crawl.CheckCount, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.byID(id)
	if err != nil {
		return nil, err
	}
	failing := map[string]int{}
	for _, r := range d.rows {
		if r.recorded && r.page.Rating != "" {
			for _, c := range r.failing {
				failing[c]++
			}
		}
	}
	return crawl.CheckCounts(failing), nil
}

// EachLink implements ports.CrawlStore.
func (s *CrawlStore) EachLink(ctx context.Context, id int64, fn func(from, to string) error) error {
	return s.each(ctx, id, func(d *crawlData, r *frontierRow, emit func(func() error)) {
		if r.recorded {
			from, links := r.url.URL, slices.Clone(r.page.Page.Outlinks)
			emit(func() error {
				for _, to := range links {
					if err := fn(from, to); err != nil {
						return err
					}
				}
				return nil
			})
		}
	})
}

// each visits crawl id's frontier rows in ID order, eachChunk at a time
// under the lock; visit queues calls of the caller's function with emit,
// which run after the lock is released.
func (s *CrawlStore) each(ctx context.Context, id int64, visit func(d *crawlData, r *frontierRow, emit func(func() error))) error {
	var after int64
	for {
		var calls []func() error
		s.mu.RLock()
		d, err := s.byID(id)
		if err != nil {
			s.mu.RUnlock()
			return err
		}
		i, _ := slices.BinarySearchFunc(d.rows, after+1, func(r *frontierRow, id int64) int { return cmp.Compare(r.id, id) })
		end := min(i+eachChunk, len(d.rows))
		for _, r := range d.rows[i:end] {
			visit(d, r, func(f func() error) { calls = append(calls, f) })
			after = r.id
		}
		s.mu.RUnlock()
		for _, call := range calls {
			if err := call(); err != nil {
				return err
			}
		}
		if end == i {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// EachIssue implements ports.CrawlStore.
func (s *CrawlStore) EachIssue(ctx context.Context, id int64, fn func(crawl.Issue) error) error {
	for from := 0; ; from += eachChunk {
		s.mu.RLock()
		d, err := s.byID(id)
		if err != nil {
			s.mu.RUnlock()
			return err
		}
		chunk := make([]crawl.Issue, 0, eachChunk)
		for _, is := range d.issues[min(from, len(d.issues)):min(from+eachChunk, len(d.issues))] {
			chunk = append(chunk, cloneIssue(is))
		}
		s.mu.RUnlock()
		for _, is := range chunk {
			if err := fn(is); err != nil {
				return err
			}
		}
		if len(chunk) < eachChunk {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}
