package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// AddURLs implements ports.CrawlStore.
func (s *CrawlStore) AddURLs(_ context.Context, id int64, urls []ports.FrontierURL) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return 0, err
	}
	return s.addURLs(d, urls), nil
}

// MarkSeeded implements ports.CrawlStore.
func (s *CrawlStore) MarkSeeded(_ context.Context, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return err
	}
	d.c.Seeded = true
	return nil
}

// addURLs adds urls to d's frontier, the new ones in the room its cap
// leaves (the shallowest first; NotQueued counts the others), and returns
// how many were added; the caller holds the lock.
func (s *CrawlStore) addURLs(d *crawlData, urls []ports.FrontierURL) int {
	var fresh []ports.FrontierURL
	at := map[string]int{}
	for _, u := range urls {
		if r, ok := d.byURL[u.URL]; ok {
			r.url.Depth = crawl.MinDepth(r.url.Depth, u.Depth)
			r.url.InSitemap = r.url.InSitemap || u.InSitemap
			continue
		}
		if i, ok := at[u.URL]; ok {
			fresh[i].Depth = crawl.MinDepth(fresh[i].Depth, u.Depth)
			fresh[i].InSitemap = fresh[i].InSitemap || u.InSitemap
			continue
		}
		at[u.URL] = len(fresh)
		fresh = append(fresh, u)
	}
	room := d.c.Settings.FrontierCap() - d.c.Progress.Discovered
	if len(fresh) > room {
		slices.SortStableFunc(fresh, func(a, b ports.FrontierURL) int { return crawl.CompareDepth(a.Depth, b.Depth) })
	}
	added := 0
	for _, u := range fresh {
		if added >= room {
			d.c.Progress.NotQueued++
			continue
		}
		u.Attempt = 0
		s.addRow(d, u)
		added++
	}
	return added
}

// addRow appends a new frontier row to d; the caller holds the lock.
func (s *CrawlStore) addRow(d *crawlData, u ports.FrontierURL) *frontierRow {
	s.lastURL++
	r := &frontierRow{id: s.lastURL, url: u}
	d.byURL[u.URL], d.rows = r, append(d.rows, r)
	d.c.Progress.Discovered++
	return r
}

// ClaimURLs implements ports.CrawlStore.
func (s *CrawlStore) ClaimURLs(_ context.Context, id int64, n int, now, until time.Time) ([]ports.FrontierURL, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return nil, err
	}
	busy, top := 0, crawl.NoDepth // top: the shallowest unrecorded depth
	var free []*frontierRow
	for _, r := range d.rows {
		if !r.recorded && crawl.CompareDepth(r.url.Depth, top) < 0 {
			top = r.url.Depth
		}
		switch {
		case r.recorded:
			if !r.page.Page.BlockedByRobots {
				busy++
			}
		case !r.leaseUntil.IsZero() && now.Before(r.leaseUntil):
			busy++
		default:
			free = append(free, r)
		}
	}
	if top != crawl.NoDepth { // deeper URLs wait for the links to be walked
		free = slices.DeleteFunc(free, func(r *frontierRow) bool { return crawl.CompareDepth(r.url.Depth, top+1) > 0 })
	}
	n = min(n, d.c.Settings.MaxPages-busy, len(free))
	if n <= 0 {
		return nil, nil
	}
	slices.SortFunc(free, func(a, b *frontierRow) int {
		return cmp.Or(crawl.CompareDepth(a.url.Depth, b.url.Depth), cmp.Compare(a.id, b.id))
	})
	out := make([]ports.FrontierURL, n)
	for i, r := range free[:n] {
		r.leaseUntil = micro(until)
		r.url.Attempt++
		out[i] = r.url
	}
	return out, nil
}

// RecordPages implements ports.CrawlStore: every page is encoded before
// any is stored.
func (s *CrawlStore) RecordPages(_ context.Context, id int64, found []ports.FrontierURL, pages []ports.FetchedPage) error {
	results := make([][]byte, len(pages))
	renderings := make([]*pagecheck.Rendering, len(pages))
	for i, p := range pages {
		b, err := json.Marshal(p.Results)
		if err != nil {
			return errEncode(err)
		}
		results[i] = b
		if p.Rendering != nil { // its own copy, as the stores keep theirs
			if renderings[i], err = cloneJSON(p.Rendering); err != nil {
				return err
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return err
	}
	s.addURLs(d, found)
	for i, p := range pages {
		r, ok := d.byURL[p.Page.URL]
		if !ok {
			r = s.addRow(d, ports.FrontierURL{URL: p.Page.URL, Depth: p.Page.Depth, InSitemap: p.Page.InSitemap})
		}
		if r.recorded {
			d.c.Progress.Count(r.page.Page, -1)
		}
		r.failing = p.Results.Failing()
		p.Results = nil
		p.Rendering = renderings[i]
		p.Page = clonePage(p.Page)
		p.Page.Outlinks = p.Page.Links()
		p.ResponseTime = p.ResponseTime.Truncate(time.Microsecond)
		p.FetchedAt = micro(p.FetchedAt)
		r.recorded, r.results = true, results[i]
		r.page = ports.CrawlPage{ID: r.id, FetchedPage: p, Indexable: p.Page.Indexable(), Outlinks: len(p.Page.Outlinks), Inlinks: r.page.Inlinks}
		d.c.Progress.Count(p.Page, 1)
		d.c.Progress.LinksNotRead += p.LinksNotRead
	}
	return nil
}

// clonePage is p with its own slices.
func clonePage(p crawl.Page) crawl.Page {
	p.Redirects, p.Hreflang, p.Outlinks = slices.Clone(p.Redirects), slices.Clone(p.Hreflang), slices.Clone(p.Outlinks)
	p.Render.Issues = slices.Clone(p.Render.Issues)
	return p
}

// SaveIssues implements ports.CrawlStore.
func (s *CrawlStore) SaveIssues(_ context.Context, id int64, issues []crawl.Issue) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return err
	}
	d.issues = make([]crawl.Issue, len(issues))
	for i, is := range issues {
		d.issues[i] = cloneIssue(is)
	}
	return nil
}

// cloneIssue is i with its own Related.
func cloneIssue(i crawl.Issue) crawl.Issue {
	i.Related = slices.Clone(i.Related)
	return i
}

// RecordOf implements ports.CrawlStore.
func (s *CrawlStore) RecordOf(_ context.Context, id int64, url string) (crawl.Page, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return crawl.Page{}, false, err
	}
	r, ok := d.byURL[url]
	if !ok || !r.recorded {
		return crawl.Page{}, false, nil
	}
	p := clonePage(pageOfRow(r, false).Page)
	p.Outlinks = nil
	return p, true, nil
}

// cloneJSON is a deep copy of v through its JSON.
func cloneJSON[T any](v *T) (*T, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errEncode(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		return nil, errEncode(err)
	}
	return out, nil
}
