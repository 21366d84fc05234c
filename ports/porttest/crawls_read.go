package porttest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/ports"
)

// crawlFixture records 6 pages of a running crawl of user u[1]: p0..p5 with
// depths 0,1,1,2,2,NoDepth, scores 50..55 (p4 noindex), statuses 200 but
// p2 404, response times 6..1 ms, p0 linked by all, and issues on p2, p3.
func crawlFixture(t *testing.T, s ports.CrawlStore, u owners) crawl.Crawl {
	t.Helper()
	ctx := context.Background()
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	depths := []int{0, 1, 1, 2, 2, crawl.NoDepth}
	var urls []ports.FrontierURL
	for i, d := range depths {
		urls = append(urls, ports.FrontierURL{URL: pageURL(c, i), Depth: d, InSitemap: d == crawl.NoDepth, Source: "start"})
	}
	if _, err := s.AddURLs(ctx, c.ID, urls); err != nil {
		t.Fatal(err)
	}
	pages := pagesOf(c, 6)
	for i := range pages {
		pages[i].Page.Outlinks = []string{pageURL(c, 0)}
		pages[i].ResponseTime = time.Duration(6-i) * time.Millisecond
	}
	pages[2].Page.Status = 404
	pages[4].Page.Noindex = true
	pages[1].Page.Outlinks = append(pages[1].Page.Outlinks, pageURL(c, 3))
	if err := s.RecordPages(ctx, c.ID, nil, pages); err != nil {
		t.Fatal(err)
	}
	issues := []crawl.Issue{
		{Type: crawl.BrokenLink, URL: pageURL(c, 2), Detail: "404", Related: []string{pageURL(c, 0)}, RelatedTotal: 1},
		{Type: crawl.DuplicateTitle, URL: pageURL(c, 3), Detail: "dup", Related: []string{pageURL(c, 0), pageURL(c, 1)}, RelatedTotal: 2},
		{Type: crawl.DeepPage, URL: pageURL(c, 3), Detail: "deep"},
		{Type: crawl.RobotsTxtInvalid, URL: c.Settings.URL + "robots.txt", Line: 3, LineText: "Disalow: /x", Detail: "unknown directive"},
	}
	if err := s.SaveIssues(ctx, c.ID, issues); err != nil {
		t.Fatal(err)
	}
	finishCrawl(t, s, c.ID, 52)
	return c
}

// pageNumbers are the indexes i of listed pages p<i>.
func pageNumbers(c crawl.Crawl, ps []ports.CrawlPage) []int {
	out := []int{}
	for _, p := range ps {
		var i int
		if _, err := fmt.Sscanf(p.Page.URL, c.Settings.URL+"p%d", &i); err != nil {
			panic(err)
		}
		out = append(out, i)
	}
	return out
}

func testPageList(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := crawlFixture(t, s, u)
	yes, no := true, false
	for _, tc := range []struct {
		name  string
		q     ports.PageQuery
		want  []int
		total int
	}{
		{"by id", ports.PageQuery{}, []int{0, 1, 2, 3, 4, 5}, 6},
		{"url desc", ports.PageQuery{SortBy: ports.SortPagesByURL, Desc: true}, []int{5, 4, 3, 2, 1, 0}, 6},
		{"depth", ports.PageQuery{SortBy: ports.SortPagesByDepth}, []int{0, 1, 2, 3, 4, 5}, 6},
		{"depth desc", ports.PageQuery{SortBy: ports.SortPagesByDepth, Desc: true}, []int{5, 4, 3, 2, 1, 0}, 6},
		{"score desc", ports.PageQuery{SortBy: ports.SortPagesByScore, Desc: true}, []int{5, 4, 3, 2, 1, 0}, 6},
		{"inlinks desc", ports.PageQuery{SortBy: ports.SortPagesByInlinks, Desc: true}, []int{0, 3, 5, 4, 2, 1}, 6},
		{"response time", ports.PageQuery{SortBy: ports.SortPagesByResponseTime}, []int{5, 4, 3, 2, 1, 0}, 6},
		{"status", ports.PageQuery{Status: 404}, []int{2}, 1},
		{"issue type", ports.PageQuery{IssueType: crawl.DeepPage}, []int{3}, 1},
		{"indexable", ports.PageQuery{Indexable: &no}, []int{2, 4}, 2},
		{"indexable, paged", ports.PageQuery{Indexable: &yes, Page: paging.Page{Number: 2, PerPage: 3}}, []int{5}, 4},
		{"beyond the end", ports.PageQuery{Page: paging.Page{Number: 5, PerPage: 3}}, []int{}, 6},
	} {
		got, total, err := s.Pages(ctx, u[1], c.ID, tc.q)
		if err != nil || total != tc.total || !reflect.DeepEqual(pageNumbers(c, got), tc.want) {
			t.Errorf("Pages(%s) = %v (total %d), %v; want %v (total %d)", tc.name, pageNumbers(c, got), total, err, tc.want, tc.total)
		}
	}
	got, _, err := s.Pages(ctx, u[1], c.ID, ports.PageQuery{SortBy: ports.SortPagesByURL})
	if err != nil {
		t.Fatal(err)
	}
	if p := got[3]; !reflect.DeepEqual(p.IssueTypes, []crawl.IssueType{crawl.DuplicateTitle, crawl.DeepPage}) || p.Inlinks != 1 ||
		p.Page.Depth != 2 || p.ResponseTime != 3*time.Millisecond || p.Bytes != 1003 || !p.Indexable {
		t.Errorf("listed p3 = %+v", p)
	}
	if p := got[0]; len(p.IssueTypes) != 0 || p.Inlinks != 5 {
		t.Errorf("listed p0 = %+v; want no issues, 5 inlinks", p)
	}
	if _, _, err := s.Pages(ctx, u[2], c.ID, ports.PageQuery{}); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("Pages of another user's crawl = %v", err)
	}
	if p, err := s.Page(ctx, u[1], c.ID, got[3].ID); err != nil || !reflect.DeepEqual(p.IssueTypes, got[3].IssueTypes) {
		t.Errorf("Page(p3).IssueTypes = %v, %v", p.IssueTypes, err)
	}
}

func testCrawlIssues(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := crawlFixture(t, s, u)
	all, total, err := s.Issues(ctx, u[1], c.ID, ports.IssueQuery{})
	if err != nil || total != 4 || len(all) != 4 {
		t.Fatalf("Issues = %v (%d), %v", all, total, err)
	}
	want := crawl.Issue{Type: crawl.DuplicateTitle, URL: pageURL(c, 3), Detail: "dup", Related: []string{pageURL(c, 0), pageURL(c, 1)}, RelatedTotal: 2}
	if !reflect.DeepEqual(all[1], want) || all[3].Line != 3 || all[3].LineText != "Disalow: /x" || len(all[2].Related) != 0 {
		t.Errorf("Issues = %+v", all)
	}
	for _, tc := range []struct {
		q     ports.IssueQuery
		want  []crawl.IssueType
		total int
	}{
		{ports.IssueQuery{Type: crawl.DeepPage}, []crawl.IssueType{crawl.DeepPage}, 1},
		{ports.IssueQuery{Severity: pagecheck.Medium}, []crawl.IssueType{crawl.DuplicateTitle, crawl.RobotsTxtInvalid}, 2},
		{ports.IssueQuery{Severity: pagecheck.Low}, []crawl.IssueType{crawl.DeepPage}, 1},
		{ports.IssueQuery{Page: paging.Page{Number: 2, PerPage: 3}}, []crawl.IssueType{crawl.RobotsTxtInvalid}, 4},
		{ports.IssueQuery{Type: crawl.OrphanPage}, []crawl.IssueType{}, 0},
	} {
		got, total, err := s.Issues(ctx, u[1], c.ID, tc.q)
		types := []crawl.IssueType{}
		for _, i := range got {
			types = append(types, i.Type)
		}
		if err != nil || total != tc.total || !reflect.DeepEqual(types, tc.want) {
			t.Errorf("Issues(%+v) = %v (%d), %v; want %v (%d)", tc.q, types, total, err, tc.want, tc.total)
		}
	}
	if _, _, err := s.Issues(ctx, u[2], c.ID, ports.IssueQuery{}); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("Issues of another user's crawl = %v", err)
	}
	// Saving again replaces them.
	if err := s.SaveIssues(ctx, c.ID, all[:1]); err != nil {
		t.Fatal(err)
	}
	if _, total, _ := s.Issues(ctx, u[1], c.ID, ports.IssueQuery{}); total != 1 {
		t.Errorf("issues after saving one = %d", total)
	}
}

func testCrawlStreaming(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	const n = 1234 // past any chunk of 500 or 1000
	pages := pagesOf(c, 3)
	for i := 3; i < n; i++ {
		pages = append(pages, ports.FetchedPage{Page: crawl.Page{URL: pageURL(c, i), FinalURL: pageURL(c, i), Status: 200, Depth: 5,
			Outlinks: []string{pageURL(c, 0), pageURL(c, i+1)}}, FetchedAt: crawlEpoch})
	}
	for from := 0; from < n; from += 200 {
		if err := s.RecordPages(ctx, c.ID, nil, pages[from:min(from+200, n)]); err != nil {
			t.Fatal(err)
		}
	}
	// Before its issues are saved, as at a crawl's first finish.
	bare := 0
	err := s.EachPage(ctx, c.ID, func(p ports.CrawlPage) error {
		if p.IssueTypes != nil || p.Page.URL != pageURL(c, bare) {
			t.Fatalf("EachPage before SaveIssues: page %d = %s with issue types %v", bare, p.Page.URL, p.IssueTypes)
		}
		bare++
		return nil
	})
	if err != nil || bare != n {
		t.Fatalf("EachPage before SaveIssues = %d pages, %v", bare, err)
	}
	var issues []crawl.Issue
	for i := range n {
		issues = append(issues, crawl.Issue{Type: crawl.DeepPage, URL: pageURL(c, i), Detail: "deep"})
	}
	if err := s.SaveIssues(ctx, c.ID, issues); err != nil {
		t.Fatal(err)
	}
	var seen []string
	var lastID int64
	err = s.EachPage(ctx, c.ID, func(p ports.CrawlPage) error {
		if p.ID <= lastID || p.Results != nil {
			t.Fatalf("EachPage: page %d after %d, results %v", p.ID, lastID, p.Results != nil)
		}
		if !reflect.DeepEqual(p.IssueTypes, []crawl.IssueType{crawl.DeepPage}) {
			t.Fatalf("EachPage: page %s issue types %v, want [deep_page]", p.Page.URL, p.IssueTypes)
		}
		lastID = p.ID
		seen = append(seen, p.Page.URL)
		return nil
	})
	if err != nil || len(seen) != n || seen[0] != pageURL(c, 0) || seen[n-1] != pageURL(c, n-1) {
		t.Fatalf("EachPage = %d pages, %v", len(seen), err)
	}
	// Every page's record, as the Detector reads it.
	d := crawl.NewDetector(crawl.Site{StartURL: c.Settings.URL})
	first := true
	_ = s.EachPage(ctx, c.ID, func(p ports.CrawlPage) error {
		if first && !reflect.DeepEqual(p.Page.Outlinks, pages[0].Page.Outlinks) {
			t.Errorf("EachPage outlinks of p0 = %v", p.Page.Outlinks)
		}
		first = false
		d.Add(p.Page)
		return nil
	})
	if deep := crawl.Counts(d.Finish()); len(deep) != 1 || deep[0].Type != crawl.DeepPage || deep[0].Count != n-3 {
		t.Errorf("the Detector's counts = %+v, want %d deep pages", deep, n-3)
	}
	links := 0
	err = s.EachLink(ctx, c.ID, func(from, to string) error {
		if links == 0 && (from != pageURL(c, 0) || to != pageURL(c, 0)) {
			t.Errorf("first link = %s -> %s", from, to)
		}
		links++
		return nil
	})
	if want := 3*3 + (n-3)*2; err != nil || links != want {
		t.Errorf("EachLink = %d links, %v; want %d", links, err, want)
	}
	var got []crawl.Issue
	if err := s.EachIssue(ctx, c.ID, func(i crawl.Issue) error { got = append(got, i); return nil }); err != nil || len(got) != n ||
		got[n-1].URL != pageURL(c, n-1) || !slices.EqualFunc(got[:3], issues[:3], func(a, b crawl.Issue) bool { return a.URL == b.URL }) {
		t.Errorf("EachIssue = %d issues, %v", len(got), err)
	}
	stop := errors.New("stop")
	calls := 0
	if err := s.EachPage(ctx, c.ID, func(ports.CrawlPage) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("EachPage stopped by its function = %v after %d calls", err, calls)
	}
	// A context ending midway ends the reading with an error, reads ahead
	// included.
	cut, cancel := context.WithCancel(ctx)
	read := 0
	err = s.EachPage(cut, c.ID, func(ports.CrawlPage) error { read++; cancel(); return nil })
	cancel()
	if err == nil || read == n {
		t.Errorf("EachPage whose context ended at its first page = %v after %d of %d pages", err, read, n)
	}
	if err := s.EachIssue(ctx, c.ID, func(crawl.Issue) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("EachIssue stopped by its function = %v", err)
	}
	if err := s.EachLink(ctx, c.ID, func(string, string) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("EachLink stopped by its function = %v", err)
	}
}

func testCrawlDelete(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := crawlFixture(t, s, u)
	if err := s.DeleteCrawl(ctx, u[2], c.ID); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("DeleteCrawl of another user's crawl = %v", err)
	}
	r := running(t, s, newCrawl(u[1], "https://www.example.com/again", 1)) // holds the site
	if err := s.RecordPages(ctx, r.ID, nil, pagesOf(r, 2)); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{c.ID, r.ID} {
		if err := s.DeleteCrawl(ctx, u[1], id); err != nil {
			t.Fatalf("DeleteCrawl: %v", err)
		}
		if _, err := s.Crawl(ctx, u[1], id); !errors.Is(err, crawl.ErrNotFound) {
			t.Errorf("Crawl after delete = %v", err)
		}
		if _, _, err := s.Pages(ctx, u[1], id, ports.PageQuery{}); !errors.Is(err, crawl.ErrNotFound) {
			t.Errorf("Pages after delete = %v", err)
		}
		if err := s.EachPage(ctx, id, func(ports.CrawlPage) error { return nil }); !errors.Is(err, crawl.ErrNotFound) {
			t.Errorf("EachPage after delete = %v", err)
		}
		if err := s.EachLink(ctx, id, func(string, string) error { return nil }); !errors.Is(err, crawl.ErrNotFound) {
			t.Errorf("EachLink after delete = %v", err)
		}
		if err := s.EachIssue(ctx, id, func(crawl.Issue) error { return nil }); !errors.Is(err, crawl.ErrNotFound) {
			t.Errorf("EachIssue after delete = %v", err)
		}
	}
	if err := s.DeleteCrawl(ctx, u[1], c.ID); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("DeleteCrawl twice = %v", err)
	}
	// The deleted running crawl's crawler learns it, and its site is free.
	if _, err := s.RenewSite(ctx, r.ID, "run", crawlEpoch.Add(time.Hour)); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("RenewSite of a deleted crawl = %v", err)
	}
	if _, ok, err := s.ClaimSite(ctx, create(t, s, newCrawl(u[2], "https://example.com/", 2)).ID, "run", crawlEpoch, crawlEpoch.Add(time.Hour)); err != nil || !ok {
		t.Errorf("ClaimSite after deleting the holder = %v, %v", ok, err)
	}
}

// testCrawlFailingChecks: FailingChecks counts the audited pages failing
// each check, past a chunk of pages, a page recorded again counted (and
// its audit read by Page) by its last record only.
func testCrawlFailingChecks(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	const n = 1100
	insecure := sampleResults()
	insecure[pagecheck.Security][0].Passed = false
	var pages []ports.FetchedPage
	audited, https := 0, 0
	for i := range n {
		p := ports.FetchedPage{Page: crawl.Page{URL: pageURL(c, i), FinalURL: pageURL(c, i), Status: 200}, FetchedAt: crawlEpoch}
		switch i % 3 {
		case 0:
			p.Score, p.Rating, p.Results = 70, pagecheck.RatingFor(70), sampleResults()
			audited++
		case 1:
			p.Score, p.Rating, p.Results = 40, pagecheck.RatingFor(40), insecure
			audited++
			https++
		}
		pages = append(pages, p)
	}
	for from := 0; from < n; from += 250 {
		if err := s.RecordPages(ctx, c.ID, nil, pages[from:min(from+250, n)]); err != nil {
			t.Fatal(err)
		}
	}
	// Page 1 again, now not audited; page 2 again, now audited.
	again := []ports.FetchedPage{pages[1], pages[2]}
	again[0].Score, again[0].Rating, again[0].Results = 0, "", nil
	again[1].Score, again[1].Rating, again[1].Results = 70, pagecheck.RatingFor(70), sampleResults()
	if err := s.RecordPages(ctx, c.ID, nil, again); err != nil {
		t.Fatal(err)
	}
	list, _, err := s.Pages(ctx, u[1], c.ID, ports.PageQuery{})
	if err != nil || len(list) < 3 {
		t.Fatalf("Pages = %d, %v", len(list), err)
	}
	for i, p := range again {
		got, err := s.Page(ctx, u[1], c.ID, list[1+i].ID)
		same := len(got.Results) == 0 && len(p.Results) == 0 || reflect.DeepEqual(got.Results, p.Results) // none, nil or empty
		if err != nil || got.Page.URL != p.Page.URL || !same {
			t.Errorf("Page(%s) after its new record: results %v, %v; want %v", p.Page.URL, got.Results, err, p.Results)
		}
	}
	got, err := s.FailingChecks(ctx, c.ID)
	want := []crawl.CheckCount{{Check: "headings", Failing: audited}, {Check: "https", Failing: https - 1}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("FailingChecks = %+v, %v; want %+v", got, err, want)
	}
	failedCheckLists(t, s, u, c, list, audited, https-1)
	empty := running(t, s, newCrawl(u[1], "https://example.org/", 0))
	if err := s.EachFailedCheck(ctx, empty.ID, func(f ports.FailedCheck) error { return fmt.Errorf("called with %+v", f) }); err != nil {
		t.Errorf("EachFailedCheck of a crawl with no page = %v; want no call", err)
	}
	if err := s.EachFailedCheck(ctx, c.ID+1000, func(ports.FailedCheck) error { return nil }); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("EachFailedCheck of no crawl = %v, want crawl.ErrNotFound", err)
	}
	if got, err := s.FailingChecks(ctx, empty.ID); err != nil || len(got) != 0 {
		t.Errorf("FailingChecks of a crawl with no page = %+v, %v; want none", got, err)
	}
	if _, err := s.FailingChecks(ctx, c.ID+1000); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("FailingChecks of no crawl = %v, want crawl.ErrNotFound", err)
	}
}

// failedCheckLists checks the failing lists of testCrawlFailingChecks'
// crawl c (list: its first listed pages): pages carry theirs, Pages
// filters by check, and EachFailedCheck gives every failed check, by page.
func failedCheckLists(t *testing.T, s ports.CrawlStore, u owners, c crawl.Crawl, list []ports.CrawlPage, headings, https int) {
	t.Helper()
	ctx := context.Background()
	for i, want := range [][]string{{"headings"}, nil, {"headings"}, {"headings"}, {"https", "headings"}} {
		if !reflect.DeepEqual(list[i].Failing, want) {
			t.Errorf("listed page %d: Failing = %q, want %q", i, list[i].Failing, want)
		}
	}
	for check, want := range map[string]int{"https": https, "headings": headings, "title": 0} {
		got, total, err := s.Pages(ctx, u[1], c.ID, ports.PageQuery{Check: check, Page: paging.Page{Number: 1, PerPage: 100}})
		if err != nil || total != want {
			t.Errorf("Pages(check %s) total %d, %v; want %d", check, total, err, want)
		}
		for _, p := range got {
			if !slices.Contains(p.Failing, check) {
				t.Errorf("Pages(check %s) lists %s, failing %q", check, p.Page.URL, p.Failing)
			}
		}
	}
	var seen int
	if err := s.EachPage(ctx, c.ID, func(p ports.CrawlPage) error {
		if p.ID == list[4].ID && reflect.DeepEqual(p.Failing, list[4].Failing) {
			seen++
		}
		return nil
	}); err != nil || seen != 1 {
		t.Errorf("EachPage: page 4's Failing seen %d times, %v; want its list once", seen, err)
	}
	var got []ports.FailedCheck
	if err := s.EachFailedCheck(ctx, c.ID, func(f ports.FailedCheck) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != headings+https {
		t.Fatalf("EachFailedCheck gave %d checks, want %d", len(got), headings+https)
	}
	for i, f := range got {
		if i > 0 && f.PageID < got[i-1].PageID {
			t.Fatalf("EachFailedCheck: page %d after page %d", f.PageID, got[i-1].PageID)
		}
	}
	first := []string{list[0].Page.URL + " headings", list[2].Page.URL + " headings", list[3].Page.URL + " headings",
		list[4].Page.URL + " https", list[4].Page.URL + " headings"}
	for i, want := range first {
		if g := got[i].URL + " " + got[i].Check.ID; g != want || got[i].Check.Passed {
			t.Errorf("EachFailedCheck #%d = %s (passed %v), want %s failed", i, g, got[i].Check.Passed, want)
		}
	}
	if want := sampleResults()[pagecheck.SEO][1]; !reflect.DeepEqual(got[0].Check, want) || got[0].PageID != list[0].ID {
		t.Errorf("EachFailedCheck #0 = %+v, want page %d's %+v", got[0], list[0].ID, want)
	}
}
