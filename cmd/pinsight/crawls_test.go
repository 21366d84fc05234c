package main

import (
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/tests/crawlsite"
)

// crawlJSON is the part of a crawl the crawl test reads.
type crawlJSON struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
	Pages  struct {
		Discovered, Crawled, Failed, Blocked int
	} `json:"pages"`
	Score  int    `json:"score"`
	Result string `json:"result"`
	Issues []struct {
		Type     string `json:"type"`
		Severity string `json:"severity"`
		Count    int    `json:"count"`
	} `json:"issues"`
	AI []struct {
		Token   string `json:"token"`
		Allowed bool   `json:"allowed"`
	} `json:"ai_readiness"`
	LLMsTxt struct {
		Found      bool `json:"found"`
		WellFormed bool `json:"well_formed"`
	} `json:"llms_txt"`
	Checks []struct {
		Check   string `json:"check"`
		Failing int    `json:"failing"`
		Pages   string `json:"pages"`
	} `json:"checks"`
}

// crawl GETs a crawl.
func (c *apiClient) crawl(id int64) crawlJSON {
	c.t.Helper()
	var env struct{ Data crawlJSON }
	if st, raw := c.callPatient(http.MethodGet, "/api/v1/crawls/"+itoa(id), nil, &env); st != http.StatusOK {
		c.t.Fatalf("GET crawl %d = %d %s", id, st, raw)
	}
	return env.Data
}

// TestCrawlThroughTheAPI runs the real server on SQLite (and on memory)
// with the guard on (only the loopback fixture site allowed) and crawls
// tests/crawlsite through the API: the issue counts are exactly the
// planted ones, pages and issues list and export, another user sees none
// of it, a second crawl is cancelled and compared with the first, and
// delete removes it.
func TestCrawlThroughTheAPI(t *testing.T) {
	for _, storage := range []string{"sqlite", "memory"} {
		t.Run(storage, func(t *testing.T) {
			if storage == "memory" && testing.Short() {
				t.Skip("the same flow as on SQLite; -short runs one")
			}
			dbURL := "memory:"
			if storage == "sqlite" {
				dbURL = "sqlite:" + filepath.Join(t.TempDir(), "p.db")
			}
			testCrawlThroughTheAPI(t, dbURL)
		})
	}
}

func testCrawlThroughTheAPI(t *testing.T, dbURL string) {
	fixture := crawlsite.New(crawlsite.Options{})
	site := httptest.NewServer(fixture)
	t.Cleanup(site.Close)
	cfg := jobsServeConfig(dbURL, 5*time.Second)
	cfg.Site.Fetch.AllowPrivate = false
	cfg.Site.Fetch.AllowTargets = []string{hostOf(t, site.URL)}
	cfg.Site.CrawlDailyPages = 5000
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	base := "http://" + srv.Addr()
	c := newUser(t, base, "crawls@example.com")
	other := newUser(t, base, "other@example.com")

	// Invalid settings: every field at once, 422.
	var bad struct {
		Success bool
		Errors  map[string][]string
	}
	st, raw := c.call(http.MethodPost, "/api/v1/crawls", map[string]any{"url": "ftp://x", "exclude": []string{"nope"},
		"headers": map[string]string{"Host": "evil"}}, &bad)
	if st != http.StatusUnprocessableEntity || bad.Success || len(bad.Errors["url"]) == 0 || len(bad.Errors["exclude"]) == 0 || len(bad.Errors["headers"]) == 0 {
		t.Errorf("invalid crawl = %d %s, want 422 on url, exclude and headers", st, raw)
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/crawls", map[string]any{"url": site.URL + "/", "max_pages": 6000}, &bad); st != http.StatusUnprocessableEntity || len(bad.Errors["max_pages"]) == 0 {
		t.Errorf("max_pages above the daily quota = %d %s, want 422 on max_pages", st, raw)
	}

	// Create, with an Idempotency-Key: the retry answers the same crawl.
	body := map[string]any{"url": site.URL + crawlsite.StartPath, "max_pages": 2000, "concurrency": 4}
	var created struct{ Data crawlJSON }
	st, h, raw := c.callHeaderWith(http.MethodPost, "/api/v1/crawls", body, &created, "Idempotency-Key", "crawl-1")
	if st != http.StatusAccepted || created.Data.ID == 0 || h.Get("Location") != "/api/v1/crawls/"+itoa(created.Data.ID) {
		t.Fatalf("create crawl = %d %v %s, want 202 with Location", st, h, raw)
	}
	id := created.Data.ID
	var again struct{ Data crawlJSON }
	st, h, raw = c.callHeaderWith(http.MethodPost, "/api/v1/crawls", body, &again, "Idempotency-Key", "crawl-1")
	if st != http.StatusAccepted || again.Data.ID != id || h.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replayed create = %d %v %s, want 202 replaying crawl %d", st, h, raw, id)
	}

	changed := map[string]any{"url": site.URL + crawlsite.StartPath, "max_pages": 1999}
	if st, _, raw := c.callHeaderWith(http.MethodPost, "/api/v1/crawls", changed, &bad, "Idempotency-Key", "crawl-1"); st != http.StatusUnprocessableEntity || len(bad.Errors["Idempotency-Key"]) == 0 {
		t.Errorf("the key with another body = %d %s, want 422 on Idempotency-Key", st, raw)
	}

	deadline := time.Now().Add(90 * time.Second)
	cr := c.crawl(id)
	for cr.Status == "queued" || cr.Status == "running" {
		if time.Now().After(deadline) {
			t.Fatalf("crawl still %s after 90 s: %+v", cr.Status, cr)
		}
		time.Sleep(200 * time.Millisecond)
		cr = c.crawl(id)
	}
	if cr.Status != "finished" || cr.Result == "" || cr.Score == 0 {
		t.Fatalf("crawl = %+v, want finished with a score", cr)
	}
	checkFixtureCounts(t, cr, fixture)
	stats, want := fixture.Stats(), fixture.Expected()
	if !cr.LLMsTxt.Found || !cr.LLMsTxt.WellFormed || len(cr.AI) == 0 {
		t.Errorf("AI readiness %+v, llms.txt %+v: want the table and a well-formed llms.txt", cr.AI, cr.LLMsTxt)
	}
	for _, a := range cr.AI {
		if allowed, ok := fixture.AIAccess()[a.Token]; ok && allowed != a.Allowed {
			t.Errorf("AI agent %s allowed = %v, want %v", a.Token, a.Allowed, allowed)
		}
	}

	// Another user's crawl is 404 everywhere.
	for _, p := range []string{"", "/pages", "/issues", "/export?what=pages", "/diff?against=" + itoa(id)} {
		if st, raw := other.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+p, nil, nil); st != http.StatusNotFound || !strings.Contains(raw, `"success":false`) {
			t.Errorf("another user's GET %s = %d %s, want 404", p, st, raw)
		}
	}
	if st, _ := other.call(http.MethodDelete, "/api/v1/crawls/"+itoa(id), nil, nil); st != http.StatusNotFound {
		t.Errorf("another user's DELETE = %d, want 404", st)
	}

	// Pages and issues list.
	var pages struct {
		Data struct {
			Pages []struct {
				ID         int64  `json:"id"`
				URL        string `json:"url"`
				StatusCode int    `json:"status_code"`
			}
			Meta struct{ Total int }
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/pages?per_page=100&sort_by=url", nil, &pages); st != http.StatusOK ||
		pages.Data.Meta.Total != stats.Records || len(pages.Data.Pages) != min(100, stats.Records) {
		t.Fatalf("pages = %d %.300s, want %d in all", st, raw, stats.Records)
	}
	var page struct {
		Data struct {
			URL     string
			Results struct{ SEO []struct{ ID string } }
		}
	}
	var landed int64
	for _, p := range pages.Data.Pages {
		if p.StatusCode == http.StatusOK {
			landed = p.ID
			break
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/pages/"+itoa(landed), nil, &page); st != http.StatusOK || len(page.Data.Results.SEO) == 0 {
		t.Errorf("page %d = %d %.300s, want its audit", landed, st, raw)
	}
	var issues struct {
		Data struct {
			Issues []struct {
				Type    string
				URL     string
				Advice  string
				Related []string
			}
			Meta struct{ Total int }
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/issues?type=broken_link&per_page=100", nil, &issues); st != http.StatusOK ||
		issues.Data.Meta.Total != want["broken_link"] || len(issues.Data.Issues) == 0 || issues.Data.Issues[0].Advice == "" || len(issues.Data.Issues[0].Related) == 0 {
		t.Errorf("broken links = %d %.300s, want %d with advice and linking pages", st, raw, want["broken_link"])
	}
	for _, q := range []string{"/issues?type=nope", "/issues?severity=urgent", "/pages?issue_type=nope", "/pages?check=nope", "/pages?sort_by=title", "/export?what=everything", "/export?what=pages&format=xml", "/export"} {
		if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+q, nil, nil); st != http.StatusUnprocessableEntity {
			t.Errorf("GET %s = %d %.200s, want 422", q, st, raw)
		}
	}

	// Exports: a header row and every row.
	total := 0
	for _, n := range want {
		total += n
	}
	for what, rows := range map[string]int{"pages": stats.Records, "issues": total} {
		st, h, raw := c.callHeader(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/export?what="+what+"&format=csv", nil, nil)
		recs, err := csv.NewReader(strings.NewReader(raw)).ReadAll()
		if st != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") || err != nil || len(recs) != rows+1 || !strings.Contains(raw, "\r\n") {
			t.Errorf("export %s = %d %s, %d records (%v), want a header and %d rows with CRLF", what, st, h.Get("Content-Type"), len(recs), err, rows)
		}
	}
	// The pages export names each page's issue types, as the page list's
	// issue_type filter finds them.
	_, _, raw = c.callHeader(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/export?what=pages&format=csv", nil, nil)
	recs, err := csv.NewReader(strings.NewReader(raw)).ReadAll()
	types := -1
	if err == nil && len(recs) >= 2 {
		types = slices.Index(recs[0], "issue_types")
	}
	if types < 0 {
		t.Fatalf("pages export header = %v (%v), want issue_types", recs[:min(1, len(recs))], err)
	}
	withType := map[string]int{}
	for _, rec := range recs[1:] {
		for _, typ := range strings.Fields(rec[types]) {
			withType[typ]++
		}
	}
	for typ := range want {
		var listed struct {
			Data struct{ Meta struct{ Total int } }
		}
		if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/pages?per_page=10&issue_type="+typ, nil, &listed); st != http.StatusOK {
			t.Fatalf("pages?issue_type=%s = %d %.200s", typ, st, raw)
		}
		if withType[typ] != listed.Data.Meta.Total {
			t.Errorf("pages export: %d rows with %s, the page list %d", withType[typ], typ, listed.Data.Meta.Total)
		}
	}
	if withType["broken_link"] == 0 || withType["deep_page"] == 0 {
		t.Errorf("pages export issue types %v, want broken_link and deep_page among them", withType)
	}
	checkFailedChecks(t, c, id, cr, recs)
	st, _, raw = c.callHeader(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/export?what=links&format=jsonl", nil, nil)
	if lines := strings.Count(raw, "\n"); st != http.StatusOK || lines == 0 || !strings.HasPrefix(raw, `{"from":`) {
		t.Errorf("export links jsonl = %d %.200s", st, raw)
	}

	// A second crawl, cancelled, compared with the first.
	st, raw = c.call(http.MethodPost, "/api/v1/crawls", map[string]any{"url": site.URL + "/", "max_pages": 50}, &created)
	if st != http.StatusAccepted {
		t.Fatalf("second crawl = %d %s", st, raw)
	}
	second := created.Data.ID
	if st, raw := c.call(http.MethodPost, "/api/v1/crawls/"+itoa(second)+"/cancel", nil, nil); st != http.StatusOK {
		t.Fatalf("cancel = %d %s", st, raw)
	}
	deadline = time.Now().Add(2 * time.Minute)
	for cr = c.crawl(second); cr.Status != "cancelled"; cr = c.crawl(second) {
		if time.Now().After(deadline) {
			t.Fatalf("cancelled crawl still %s", cr.Status)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/crawls/"+itoa(second)+"/cancel", nil, nil); st != http.StatusConflict {
		t.Errorf("cancel again = %d %s, want 409", st, raw)
	}
	var diff struct {
		Data struct {
			Crawl, Against int64
			Fixed          []struct{ Type string }
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(second)+"/diff", nil, &diff); st != http.StatusOK || diff.Data.Against != id || diff.Data.Crawl != second {
		t.Errorf("diff = %d %.300s, want against crawl %d", st, raw, id)
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/diff", nil, nil); st != http.StatusUnprocessableEntity {
		t.Errorf("diff of the first crawl = %d %.200s, want 422 (nothing before it)", st, raw)
	}
	var listed struct {
		Data struct {
			Crawls []crawlJSON
			Meta   struct{ Total int }
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls?status=finished", nil, &listed); st != http.StatusOK || listed.Data.Meta.Total != 1 || listed.Data.Crawls[0].ID != id {
		t.Errorf("finished crawls = %d %.300s, want crawl %d", st, raw, id)
	}

	// Delete.
	if st, raw := c.call(http.MethodDelete, "/api/v1/crawls/"+itoa(id), nil, nil); st != http.StatusOK {
		t.Fatalf("delete = %d %s", st, raw)
	}
	if st, _ := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id), nil, nil); st != http.StatusNotFound {
		t.Errorf("deleted crawl = %d, want 404", st)
	}
}

// checkFixtureCounts checks that crawl cr found exactly the issues planted
// in fixture, and recorded its pages as the fixture counts them.
func checkFixtureCounts(t *testing.T, cr crawlJSON, fixture *crawlsite.Site) {
	t.Helper()
	got := map[string]int{}
	for _, i := range cr.Issues {
		got[i.Type] = i.Count
	}
	want := fixture.Expected()
	for typ, n := range want {
		if got[typ] != n {
			t.Errorf("%s: %d issues, want %d", typ, got[typ], n)
		}
	}
	for typ, n := range got {
		if _, ok := want[typ]; !ok {
			t.Errorf("%s: %d issues, none planted", typ, n)
		}
	}
	stats := fixture.Stats()
	if cr.Pages.Crawled+cr.Pages.Blocked != stats.Records || cr.Pages.Blocked != stats.Blocked || cr.Pages.Failed != stats.Errors {
		t.Errorf("progress %+v, want %d records (%d blocked, %d errors)", cr.Pages, stats.Records, stats.Blocked, stats.Errors)
	}
}

// checkFailedChecks: the summary's count of each failing page check, the
// page list its pages link gives, the pages export's failing_checks
// (pages: its records) and the checks export agree.
func checkFailedChecks(t *testing.T, c *apiClient, id int64, cr crawlJSON, pages [][]string) {
	t.Helper()
	if len(cr.Checks) == 0 {
		t.Fatal("the crawl's summary counts no failing page check; the fixture site fails several")
	}
	col := slices.Index(pages[0], "failing_checks")
	if col < 0 {
		t.Fatalf("pages export header = %v, want failing_checks", pages[0])
	}
	inPages := map[string]int{}
	for _, rec := range pages[1:] {
		for _, check := range strings.Fields(rec[col]) {
			inPages[check]++
		}
	}
	st, _, raw := c.callHeader(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/export?what=checks&format=csv", nil, nil)
	rows, err := csv.NewReader(strings.NewReader(raw)).ReadAll()
	if st != http.StatusOK || err != nil || len(rows) < 2 {
		t.Fatalf("checks export = %d, %d records (%v): %.300s", st, len(rows), err, raw)
	}
	inChecks := map[string]int{}
	for _, r := range rows[1:] {
		inChecks[r[slices.Index(rows[0], "check")]]++
		if r[slices.Index(rows[0], "advice")] == "" || r[slices.Index(rows[0], "message")] == "" {
			t.Errorf("checks export row %q: want a message and advice", r)
		}
	}
	for _, ch := range cr.Checks {
		var listed struct {
			Data struct {
				Pages []struct {
					FailingChecks []string `json:"failing_checks"`
				}
				Meta struct{ Total int }
			}
		}
		if st, raw := c.call(http.MethodGet, ch.Pages, nil, &listed); st != http.StatusOK || listed.Data.Meta.Total != ch.Failing {
			t.Errorf("summary: %d pages fail %s; GET %s = %d, %d pages: %.200s", ch.Failing, ch.Check, ch.Pages, st, listed.Data.Meta.Total, raw)
		}
		for _, p := range listed.Data.Pages {
			if !slices.Contains(p.FailingChecks, ch.Check) {
				t.Errorf("GET %s lists a page failing %v", ch.Pages, p.FailingChecks)
			}
		}
		if inPages[ch.Check] != ch.Failing || inChecks[ch.Check] != ch.Failing {
			t.Errorf("%s: summary %d pages, pages export %d, checks export %d", ch.Check, ch.Failing, inPages[ch.Check], inChecks[ch.Check])
		}
	}
	st, _, raw = c.callHeader(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/export?what=checks&format=jsonl", nil, nil)
	if st != http.StatusOK || strings.Count(raw, "\n") != len(rows)-1 || !strings.HasPrefix(raw, `{"page_id":`) {
		t.Errorf("checks export jsonl = %d, %d lines (want %d): %.200s", st, strings.Count(raw, "\n"), len(rows)-1, raw)
	}
}
